import { dayNumberOf, formatDay } from './utc-time.js';

/** Days in `daily_breakdown` and in the monthly period, today included. */
export const BREAKDOWN_DAYS = 30;
/** Days in the weekly period, today included. */
export const WEEK_DAYS = 7;

/** The 200 body of GET /api/v1/stats, field names as the seed spells them. */
export interface StatsBody {
	data: {
		sends: {
			today: number;
			weekly: number;
			monthly: number;
			all_time: number;
			failed_all_time: number;
			daily_breakdown: { date: string; sends: number }[];
		};
		joins: { today: number; weekly: number; monthly: number; all_time: number };
		meta: { generated_at: string; user: string };
	};
}

export interface AccountTotals {
	sendsOk: number;
	sendsFailed: number;
	joins: number;
}

/** One UTC day of an account's activity (successful sends and joins). */
export interface DayCounts {
	day: number;
	sendsOk: number;
	joins: number;
}

/** The UTC day numbers that `computeStatsBody` reads: today and the first day of the 30-day window. */
export function statsWindow(now: Date): { firstDay: number; today: number } {
	const today = dayNumberOf(now.getTime());
	return { firstDay: today - BREAKDOWN_DAYS + 1, today };
}

/** Builds the body from all-time totals and the per-day counts of the 30-day window (other days are ignored). */
export function computeStatsBody(input: {
	user: string;
	totals: AccountTotals;
	days: Iterable<DayCounts>;
	now: Date;
	generatedAt: string;
}): StatsBody {
	const { firstDay } = statsWindow(input.now);
	const sendsByDay = new Array<number>(BREAKDOWN_DAYS).fill(0);
	const joinsByDay = new Array<number>(BREAKDOWN_DAYS).fill(0);
	for (const row of input.days) {
		const index = row.day - firstDay;
		if (index < 0 || index >= BREAKDOWN_DAYS) continue;
		sendsByDay[index] = (sendsByDay[index] ?? 0) + row.sendsOk;
		joinsByDay[index] = (joinsByDay[index] ?? 0) + row.joins;
	}
	const sumLast = (values: number[], count: number) => values.slice(-count).reduce((sum, value) => sum + value, 0);
	return {
		data: {
			sends: {
				today: sumLast(sendsByDay, 1),
				weekly: sumLast(sendsByDay, WEEK_DAYS),
				monthly: sumLast(sendsByDay, BREAKDOWN_DAYS),
				all_time: input.totals.sendsOk,
				failed_all_time: input.totals.sendsFailed,
				daily_breakdown: sendsByDay.map((sends, index) => ({ date: formatDay(firstDay + index), sends })),
			},
			joins: {
				today: sumLast(joinsByDay, 1),
				weekly: sumLast(joinsByDay, WEEK_DAYS),
				monthly: sumLast(joinsByDay, BREAKDOWN_DAYS),
				all_time: input.totals.joins,
			},
			meta: { generated_at: input.generatedAt, user: input.user },
		},
	};
}
