import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { addDays } from './utc-days.js';
import type { HistoryRecord } from './record.js';
import { dailySeries } from './daily-figures.js';
import type { DailyFigures } from './daily-figures.js';

/** Percent is unrounded; the caller shows it signed with one decimal. `new`: the earlier period was 0. */
export type Change = { kind: 'percent'; value: number } | { kind: 'new' } | { kind: 'unknown' };

export interface PeriodComparison {
	current: number | null;
	previous: number | null;
	change: Change;
}

/** Today vs yesterday, the last 7 days (today included) vs the 7 before, the last 30 vs the 30 before. */
export interface PeriodComparisons {
	day: PeriodComparison;
	week: PeriodComparison;
	month: PeriodComparison;
}

export interface Comparisons {
	sends: PeriodComparisons;
	joins: PeriodComparisons;
}

const PERIODS = { day: 1, week: 7, month: 30 } as const;

/** Compares two period totals; never a percentage from an unknown one. 0 after 0 is no change. */
export function changeBetween(current: number | null, previous: number | null): Change {
	if (current === null || previous === null) return { kind: 'unknown' };
	if (previous === 0) return current === 0 ? { kind: 'percent', value: 0 } : { kind: 'new' };
	return { kind: 'percent', value: ((current - previous) / previous) * 100 };
}

/**
 * The embed's comparison lines. Current sends are the snapshot's own totals (today, weekly, monthly) where it
 * has them; every other figure is the sum of the history's days, and only when every day of the period is known.
 * Joins come from the history alone (today's are today's latest `joins.today`).
 */
export function comparePeriods(
	record: HistoryRecord | null,
	snapshot: StatsSnapshot | null,
	today: string,
): Comparisons {
	const longest = Math.max(...Object.values(PERIODS));
	const series = dailySeries(record, { from: addDays(today, -(2 * longest - 1)), to: today, today });
	const totals = snapshot
		? { day: snapshot.sends.today, week: snapshot.sends.weekly, month: snapshot.sends.monthly }
		: null;
	const compare = (metric: 'sends' | 'joins'): PeriodComparisons => {
		const line = (name: keyof typeof PERIODS): PeriodComparison => {
			const length = PERIODS[name];
			const own = metric === 'sends' ? (totals?.[name] ?? null) : null;
			const current = own ?? sumOf(series.slice(-length), metric);
			const previous = sumOf(series.slice(-2 * length, -length), metric);
			return { current, previous, change: changeBetween(current, previous) };
		};
		return { day: line('day'), week: line('week'), month: line('month') };
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
