import { dailySeries } from '../history/daily-figures.js';
import type { HistoryRecord } from '../history/record.js';
import { addDays, utcDateOf } from '../history/utc-days.js';
import { computeGoalProgress, FORECAST_BASE_DAYS, periodBounds, type GoalProgress } from './goal-forecast.js';
import type { Goal, GoalMetric, GoalOwner, GoalPeriod } from './goal-record.js';
import { goalStoreOf, type GoalStoreContext } from './goal-store.js';

/** A goal with where it stands: what `/stats`, reports, `/goal show`, the dashboard and digests show. */
export interface GoalFigures extends GoalProgress {
	target: number;
}

/**
 * Figures already worked out per history record, by UTC day, metric and period. A record is never changed in place
 * and a cached snapshot folds into the same record all day, so a cache-hit reply reuses them: the forecast is
 * computed once per history record and day, not per reply.
 */
const computed = new WeakMap<HistoryRecord, Map<string, GoalProgress>>();

/** The progress and forecast of one metric and period from an account's history (today's figure included). */
export function goalProgressOf(
	record: HistoryRecord | null,
	metric: GoalMetric,
	period: GoalPeriod,
	now: number,
): GoalProgress {
	const today = utcDateOf(now);
	const key = `${today}|${metric}|${period}`;
	const cached = record ? computed.get(record)?.get(key) : undefined;
	if (cached) return cached;
	const { start } = periodBounds(period, today);
	const baseStart = addDays(today, -FORECAST_BASE_DAYS);
	const series = dailySeries(record, { from: start < baseStart ? start : baseStart, to: today, today });
	const todayFigures = series.at(-1);
	const progress = computeGoalProgress({
		days: series.slice(0, -1).map((day) => ({ date: day.date, value: day[metric] })),
		todaySoFar: todayFigures?.[metric] ?? null,
		metric,
		period,
		now,
	});
	if (record) {
		let byKey = computed.get(record);
		if (!byKey) computed.set(record, (byKey = new Map()));
		byKey.set(key, progress);
	}
	return progress;
}

/** Each goal with its figures, in the goals' order. */
export function figuresOfGoals(goals: readonly Goal[], record: HistoryRecord | null, now: number): GoalFigures[] {
	return goals.map((goal) => ({ ...goalProgressOf(record, goal.metric, goal.period, now), target: goal.target }));
}

/**
 * An account's goal figures for any feature that shows them (the weekly digest among them): the goals set on
 * `owner` (the member for scope:me, the server for scope:server) measured on `record`, the history of the account
 * that owner's link reads (with the latest snapshot folded in). Empty when the owner has no goals.
 */
export async function goalFiguresFor(
	ctx: GoalStoreContext,
	owner: GoalOwner,
	record: HistoryRecord | null,
	now: number,
): Promise<GoalFigures[]> {
	const goals = await goalStoreOf(ctx).read(owner);
	return figuresOfGoals(goals, record, now);
}
