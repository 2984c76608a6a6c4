/** One event of an account's activity, as imported or ingested. `at` is an ISO 8601 string with an offset, a Date or epoch ms. */
export type StatsEvent =
	{ type: 'send'; ok: boolean; at: string | Date | number } | { type: 'join'; at: string | Date | number };

/** How an event is stored: 0 = successful send, 1 = failed send, 2 = join. */
export const EVENT_KIND = { sendOk: 0, sendFailed: 1, join: 2 } as const;
export type EventKind = (typeof EVENT_KIND)[keyof typeof EVENT_KIND];

export interface NormalizedEvent {
	kind: EventKind;
	atMs: number;
	/** The line's optional `"id"`: an event whose id the account already holds is skipped on import. */
	externalId?: string;
}

/** Thrown for an event that is not one of the three accepted shapes; the message says which part is wrong. */
export class InvalidEventError extends Error {
	override name = 'InvalidEventError';
}

/** Longest accepted `"id"`; ids are references into the sender's own system, not payloads. */
export const MAX_EVENT_ID_LENGTH = 200;

// A date and a time with an explicit zone, so no event is silently read in the machine's local time.
const ISO_INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|([+-])(\d\d):(\d\d))$/i;
// 1970 .. 9999: day numbers stay non-negative, and SQLite's integer division then floors.
const MAX_AT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// Date.parse rolls 2026-02-30 over into March; every field is checked against the calendar instead.
function isRealDateTime(match: RegExpExecArray): boolean {
	const [year, month, day, hour, minute, second = 0, , offsetHours = 0, offsetMinutes = 0] = match
		.slice(1)
		.map((part) => (part === undefined || part === '+' || part === '-' ? undefined : Number(part)));
	if (year === undefined || month === undefined || day === undefined || hour === undefined || minute === undefined) {
		return false;
	}
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year &&
		date.getUTCMonth() === month - 1 &&
		date.getUTCDate() === day &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59 &&
		offsetHours <= 23 &&
		offsetMinutes <= 59
	);
}

function readInstant(at: unknown): number {
	let ms: number;
	if (at instanceof Date) ms = at.getTime();
	else if (typeof at === 'number') ms = at;
	else if (typeof at === 'string') {
		const match = ISO_INSTANT.exec(at);
		if (!match) throw new InvalidEventError('"at" must be an ISO 8601 date-time with Z or an offset');
		if (!isRealDateTime(match)) throw new InvalidEventError(`"at" names a date or time that does not exist (${at})`);
		ms = Date.parse(at);
	} else throw new InvalidEventError('"at" is missing or not a date-time string');
	if (!Number.isFinite(ms) || ms < 0 || ms > MAX_AT_MS) {
		throw new InvalidEventError('"at" is not a valid instant between 1970 and 9999');
	}
	return Math.floor(ms);
}

function readExternalId(id: unknown): string | undefined {
	if (id === undefined) return undefined;
	if (typeof id === 'string' && id.length > 0 && id.length <= MAX_EVENT_ID_LENGTH) return id;
	if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
	throw new InvalidEventError(`"id" must be a string of 1-${MAX_EVENT_ID_LENGTH} characters or a non-negative integer`);
}

/** A short, safe rendering of a value for an error message. */
function quote(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Checks one event and reduces it to its stored form; throws InvalidEventError.
 * `notAfterMs`, when given, refuses events later than it (imports pass now + 5 minutes).
 */
export function normalizeEvent(value: unknown, notAfterMs?: number): NormalizedEvent {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new InvalidEventError('an event must be a JSON object');
	}
	const event = value as Record<string, unknown>;
	let kind: EventKind;
	if (event.type === 'send') {
		if (typeof event.ok !== 'boolean') throw new InvalidEventError('a send needs "ok": true or false');
		kind = event.ok ? EVENT_KIND.sendOk : EVENT_KIND.sendFailed;
	} else if (event.type === 'join') kind = EVENT_KIND.join;
	else if (event.type === undefined) throw new InvalidEventError('"type" is missing (expected "send" or "join")');
	else throw new InvalidEventError(`unknown type ${quote(event.type)} (expected "send" or "join")`);
	const atMs = readInstant(event.at);
	if (notAfterMs !== undefined && atMs > notAfterMs) {
		throw new InvalidEventError(`"at" is in the future (${new Date(atMs).toISOString()})`);
	}
	const externalId = readExternalId(event.id);
	return externalId === undefined ? { kind, atMs } : { kind, atMs, externalId };
}

/** Parses one NDJSON line into a stored event; throws InvalidEventError. */
export function parseEventLine(line: string, notAfterMs?: number): NormalizedEvent {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		throw new InvalidEventError('not valid JSON');
	}
	return normalizeEvent(value, notAfterMs);
}
