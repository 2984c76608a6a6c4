import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { addDays, daysBetween } from './utc-days.js';
import type { HistoryRecord } from './record.js';
import { dailySeries } from './daily-figures.js';
import type { DailyFigures } from './daily-figures.js';

/** Percent is unrounded; the caller shows it signed with one decimal. `new`: the earlier period was 0. */
export type Change = { kind: 'percent'; value: number } | { kind: 'new' } | { kind: 'unknown' };

/** Today is not over: its figure so far stands beside yesterday's total, and no change is computed. */
export interface TodayBesideYesterday {
	today: number | null;
	yesterday: number | null;
}

/** A run of complete UTC days (`from` to `to`, both included) against as many days just before it. */
export interface PeriodComparison {
	from: string;
	to: string;
	current: number | null;
	previous: number | null;
	change: Change;
}

/** Today beside yesterday; the 7 complete days ending yesterday against the 7 before; the same for 30. */
export interface PeriodComparisons {
	day: TodayBesideYesterday;
	week: PeriodComparison;
	month: PeriodComparison;
}

export interface Comparisons {
	sends: PeriodComparisons;
	joins: PeriodComparisons;
}

/** Days in each compared period; both end yesterday, the last complete UTC day. */
export const COMPARED_DAYS = { week: 7, month: 30 } as const;

/** Compares two period totals; never a percentage from an unknown one. 0 after 0 is no change. */
export function changeBetween(current: number | null, previous: number | null): Change {
	if (current === null || previous === null) return { kind: 'unknown' };
	if (previous === 0) return current === 0 ? { kind: 'percent', value: 0 } : { kind: 'new' };
	return { kind: 'percent', value: ((current - previous) / previous) * 100 };
}

/**
 * The embed's comparisons, complete days against complete days, so the hour of the request changes nothing:
 * each period ends yesterday (by the bot's clock, `today`) and is compared with as many days just before it.
 * A period's total is the sum of the history's days, and only when every one of its days is known. Today's
 * figure so far is the snapshot's own (the history's when there is no snapshot), shown beside yesterday's.
 */
export function comparePeriods(
	record: HistoryRecord | null,
	snapshot: StatsSnapshot | null,
	today: string,
): Comparisons {
	const known = record ? lastComparisons.get(record) : undefined;
	if (known && known.snapshot === snapshot && known.today === today) return known.comparisons;
	const comparisons = computeComparisons(record, snapshot, today);
	if (record) lastComparisons.set(record, { snapshot, today, comparisons });
	return comparisons;
}

/**
 * The last comparisons made from each history record. Records and snapshots are never changed in place, so a
 * cache-hit /stats, which asks with the same record, snapshot and day, gets the same answer without the 60 days
 * being walked again.
 */
const lastComparisons = new WeakMap<
	HistoryRecord,
	{ snapshot: StatsSnapshot | null; today: string; comparisons: Comparisons }
>();

function computeComparisons(record: HistoryRecord | null, snapshot: StatsSnapshot | null, today: string): Comparisons {
	const yesterday = addDays(today, -1);
	const longest = Math.max(...Object.values(COMPARED_DAYS));
	// Complete days only: the series stops at yesterday, whatever the time of day.
	const complete = dailySeries(record, { from: addDays(today, -2 * longest), to: yesterday, today });
	const [todayInHistory] = dailySeries(record, { from: today, to: today, today });
	const compare = (metric: 'sends' | 'joins'): PeriodComparisons => {
		const period = (length: number): PeriodComparison => {
			const current = sumOf(complete.slice(-length), metric);
			const previous = sumOf(complete.slice(-2 * length, -length), metric);
			return {
				from: addDays(today, -length),
				to: yesterday,
				current,
				previous,
				change: changeBetween(current, previous),
			};
		};
		const todaySoFar = snapshot ? snapshot[metric].today : (todayInHistory?.[metric] ?? null);
		return {
			day: { today: todaySoFar, yesterday: complete.at(-1)?.[metric] ?? null },
			week: period(COMPARED_DAYS.week),
			month: period(COMPARED_DAYS.month),
		};
	};
	return { sends: compare('sends'), joins: compare('joins') };
}

function sumOf(days: DailyFigures[], metric: 'sends' | 'joins'): number | null {
	let total = 0;
	for (const day of days) {
		const value = day[metric];
		if (value === null) return null;
		total += value;
	}
	return total;
}

/** A chosen range's complete days against as many days just before them, for sends and joins. */
export interface RangeComparisons {
	sends: PeriodComparison;
	joins: PeriodComparison;
}

/**
 * The comparison beside a chosen range (`from`..`to`): its complete days (up to yesterday) against as many
 * days just before them. Null when the range has no complete day (it is today alone): a day in progress is
 * never set against a whole one.
 */
export function compareRange(
	record: HistoryRecord | null,
	range: { from: string; to: string },
	today: string,
): RangeComparisons | null {
	const yesterday = addDays(today, -1);
	const to = range.to < yesterday ? range.to : yesterday;
	if (range.from > to) return null;
	const length = daysBetween(range.from, to) + 1;
	const days = dailySeries(record, { from: addDays(range.from, -length), to, today });
	const period = (metric: 'sends' | 'joins'): PeriodComparison => {
		const current = sumOf(days.slice(length), metric);
		const previous = sumOf(days.slice(0, length), metric);
		return { from: range.from, to, current, previous, change: changeBetween(current, previous) };
	};
	return { sends: period('sends'), joins: period('joins') };
}
