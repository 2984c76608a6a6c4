import { DAY_MS, startOfDate, utcDateOf } from './utc-days.js';
import type { HistoryDay, HistoryRecord } from './record.js';

/**
 * Failed sends of a day are the difference of two `failed_all_time` readings; when the readings are further
 * than this from 24 h apart, the figure covers noticeably more or less than a day and is flagged approximate.
 */
export const FAILED_EXACT_TOLERANCE_MS = 2 * 60 * 60 * 1000;

export interface DailyFigures {
	/** `YYYY-MM-DD` (UTC). */
	date: string;
	sends: number | null;
	joins: number | null;
	failedSends: number | null;
	/** True when `failedSends` comes from readings not about 24 h apart. */
	failedApproximate: boolean;
}

export interface SeriesRange {
	/** First and last date, both included, `YYYY-MM-DD`. */
	from: string;
	to: string;
	/** The bot's UTC date: today's figures are partial, later days unknown. */
	today: string;
}

/**
 * One entry per UTC day from `from` to `to`, oldest first; null wherever the history does not know.
 * Joins on D = joins-before of a snapshot on D+1 minus that of a snapshot on D (exact); today's joins are
 * today's latest `joins.today` (partial, like today's sends). Failed sends come the same way from
 * `failed_all_time`, and are unknown for today. A negative difference (the service's totals went back)
 * reads as unknown.
 */
export function dailySeries(record: HistoryRecord | null, range: SeriesRange): DailyFigures[] {
	const days = record?.days ?? {};
	const result: DailyFigures[] = [];
	let date = range.from;
	for (let time = startOfDate(range.from); date <= range.to; time += DAY_MS) {
		const next = utcDateOf(time + DAY_MS);
		result.push(figuresOf(date, days[date], days[next], range.today));
		date = next;
	}
	return result;
}

function figuresOf(
	date: string,
	day: HistoryDay | undefined,
	next: HistoryDay | undefined,
	today: string,
): DailyFigures {
	const unknown = { date, sends: null, joins: null, failedSends: null, failedApproximate: false };
	if (date > today || !day) return unknown;
	if (date === today) return { ...unknown, sends: day.sends?.value ?? null, joins: day.joinsToday?.value ?? null };
	const joins = difference(day.joinsBefore?.value, next?.joinsBefore?.value);
	const failedStart = day.failedAllTime;
	const failedEnd = next?.failedAllTime;
	const failedSends = difference(failedStart?.value, failedEnd?.value);
	const apart = failedStart && failedEnd ? failedEnd.at - failedStart.at : DAY_MS;
	return {
		date,
		sends: day.sends?.value ?? null,
		joins,
		failedSends,
		failedApproximate: failedSends !== null && Math.abs(apart - DAY_MS) > FAILED_EXACT_TOLERANCE_MS,
	};
}

function difference(start: number | undefined, end: number | undefined): number | null {
	if (start === undefined || end === undefined || end < start) return null;
	return end - start;
}

/** Dates the record holds, oldest first. */
export function recordedDates(record: HistoryRecord | null): string[] {
	return Object.keys(record?.days ?? {}).sort();
}
