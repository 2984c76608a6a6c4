import { zod } from '../lazy-packages.js';
import { ProtocolError } from '../errors.js';
import type { DailySends, StatsSnapshot } from './snapshot.js';

/** A breakdown wider than this (about ten years) is refused rather than zero-filled into a huge array. */
export const MAX_BREAKDOWN_SPAN_DAYS = 3660;

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// generated_at: the seed promises ISO 8601 with a UTC offset; fractional digits are optional here.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of a real UTC calendar date (rejects 2026-02-30), or null. */
function parseCalendarDate(value: string): number | null {
	const match = ISO_DATE.exec(value);
	if (!match) return null;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const ms = Date.UTC(year, month - 1, day);
	const back = new Date(ms);
	if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
	return ms;
}

function buildBodySchema() {
	const { z } = zod();
	const count = z.number().int().min(0);
	/** Absent or null means "unknown"; a present value must be a non-negative integer. */
	const figure = count.nullish().transform((value) => value ?? null);
	const calendarDate = z.string().refine((value) => parseCalendarDate(value) !== null, 'not a calendar date');
	const timestamp = z
		.string()
		.refine((value) => ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)), 'not an ISO 8601 timestamp');

	const daySchema = z.object({
		date: calendarDate,
		// A day without a figure adds nothing, the same as a missing day.
		sends: count.nullish().transform((value) => value ?? 0),
	});

	return z.object({
		data: z.object({
			sends: z
				.object({
					today: figure,
					weekly: figure,
					monthly: figure,
					all_time: figure,
					failed_all_time: figure,
					daily_breakdown: z.array(daySchema).nullish(),
				})
				.nullish(),
			joins: z.object({ today: figure, weekly: figure, monthly: figure, all_time: figure }).nullish(),
			meta: z.object({ generated_at: timestamp.nullish(), user: z.string().nullish() }).nullish(),
		}),
	});
}
let bodySchema: ReturnType<typeof buildBodySchema> | undefined;

/** Sorts, merges duplicate dates (summing them) and zero-fills the gaps between the first and last day. */
export function normaliseBreakdown(days: readonly DailySends[]): DailySends[] {
	const byDay = new Map<number, number>();
	for (const day of days) {
		const ms = parseCalendarDate(day.date);
		if (ms === null) throw new ProtocolError('a breakdown date is not a calendar date');
		byDay.set(ms, (byDay.get(ms) ?? 0) + day.sends);
	}
	if (byDay.size === 0) return [];
	const sorted = [...byDay.keys()].sort((a, b) => a - b);
	const first = sorted[0] ?? 0;
	const last = sorted[sorted.length - 1] ?? 0;
	const span = (last - first) / DAY_MS + 1;
	if (span > MAX_BREAKDOWN_SPAN_DAYS)
		throw new ProtocolError(`the breakdown spans more than ${MAX_BREAKDOWN_SPAN_DAYS} days`);
	const result: DailySends[] = [];
	for (let ms = first; ms <= last; ms += DAY_MS) {
		result.push({ date: new Date(ms).toISOString().slice(0, 10), sends: byDay.get(ms) ?? 0 });
	}
	return result;
}

/**
 * Turns a response body into a snapshot. Throws ProtocolError for non-JSON or a wrong shape;
 * the error names the offending field path only, never a value from the body.
 */
export function parseStatsBody(text: string): StatsSnapshot {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw new ProtocolError('the body is not JSON');
	}
	bodySchema ??= buildBodySchema();
	const parsed = bodySchema.safeParse(json);
	if (!parsed.success) {
		const path = parsed.error.issues[0]?.path.join('.') || 'body';
		throw new ProtocolError(`unexpected value at ${path}`);
	}
	const { sends, joins, meta } = parsed.data.data;
	return {
		sends: {
			today: sends?.today ?? null,
			weekly: sends?.weekly ?? null,
			monthly: sends?.monthly ?? null,
			allTime: sends?.all_time ?? null,
			failedAllTime: sends?.failed_all_time ?? null,
			dailyBreakdown: normaliseBreakdown(sends?.daily_breakdown ?? []),
		},
		joins: {
			today: joins?.today ?? null,
			weekly: joins?.weekly ?? null,
			monthly: joins?.monthly ?? null,
			allTime: joins?.all_time ?? null,
		},
		meta: { generatedAt: meta?.generated_at ?? null, user: meta?.user ?? null },
	};
}
