/** One event of an account's activity, as imported or ingested. `at` is an ISO 8601 string with an offset, a Date or epoch ms. */
export type StatsEvent =
	{ type: 'send'; ok: boolean; at: string | Date | number } | { type: 'join'; at: string | Date | number };

/** How an event is stored: 0 = successful send, 1 = failed send, 2 = join. */
export const EVENT_KIND = { sendOk: 0, sendFailed: 1, join: 2 } as const;
export type EventKind = (typeof EVENT_KIND)[keyof typeof EVENT_KIND];

export interface NormalizedEvent {
	kind: EventKind;
	atMs: number;
}

/** Thrown for an event that is not one of the three accepted shapes; the message says which part is wrong. */
export class InvalidEventError extends Error {
	override name = 'InvalidEventError';
}

// A date and a time with an explicit zone, so no event is silently read in the machine's local time.
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:\d\d)$/i;
// 1970 .. 9999: day numbers stay non-negative, and SQLite's integer division then floors.
const MAX_AT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function readInstant(at: unknown): number {
	let ms: number;
	if (at instanceof Date) ms = at.getTime();
	else if (typeof at === 'number') ms = at;
	else if (typeof at === 'string') {
		if (!ISO_INSTANT.test(at)) throw new InvalidEventError('"at" must be an ISO 8601 date-time with Z or an offset');
		ms = Date.parse(at);
	} else throw new InvalidEventError('"at" is missing or not a date-time string');
	if (!Number.isFinite(ms) || ms < 0 || ms > MAX_AT_MS) {
		throw new InvalidEventError('"at" is not a valid instant between 1970 and 9999');
	}
	return Math.floor(ms);
}

/** Checks one event and reduces it to its stored form; throws InvalidEventError. */
export function normalizeEvent(value: unknown): NormalizedEvent {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new InvalidEventError('an event must be a JSON object');
	}
	const event = value as Record<string, unknown>;
	if (event.type === 'send') {
		if (typeof event.ok !== 'boolean') throw new InvalidEventError('a send needs "ok": true or false');
		return { kind: event.ok ? EVENT_KIND.sendOk : EVENT_KIND.sendFailed, atMs: readInstant(event.at) };
	}
	if (event.type === 'join') return { kind: EVENT_KIND.join, atMs: readInstant(event.at) };
	throw new InvalidEventError('"type" must be "send" or "join"');
}

/** Parses one NDJSON line into a stored event; throws InvalidEventError. */
export function parseEventLine(line: string): NormalizedEvent {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		throw new InvalidEventError('not valid JSON');
	}
	return normalizeEvent(value);
}
