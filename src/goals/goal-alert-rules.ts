// The goal kinds of `/alert` (docs/goals.md): each goal of the server fires once per period, when reached or when its
// forecast band's high end falls below the target.
import type { HistoryRecord } from '../history/record.js';
import { DAY_MS, daysBetween, startOfDate, utcDateOf } from '../history/utc-days.js';
import type { GoalForecast } from './goal-forecast.js';
import { goalProgressOf } from './goal-figures.js';
import type { Goal, GoalMetric, GoalPeriod } from './goal-record.js';

/** A goal at risk is judged only once this part of its period has passed: early days say little. */
export const AT_RISK_AFTER = 0.25;
/** Periods remembered per alert: two metrics × two periods, this period's and the last. */
const REMEMBERED_PERIODS = 8;

/** What a goal alert's post says: the goal, the figure, the target and the forecast. */
export interface GoalFiringFigures {
	metric: GoalMetric;
	period: GoalPeriod;
	start: string;
	target: number;
	progress: number;
	forecast: GoalForecast | null;
}

export interface GoalRuleState {
	day: string | null;
	firedPeriods?: string[];
}

export interface GoalRuleStep<S extends GoalRuleState> {
	state: S;
	fire: { value: number; since: number; goal: GoalFiringFigures } | null;
}

/**
 * One evaluation of a goal kind over the server's goals: the first goal that newly meets the condition fires (the
 * next one at the next evaluation). goal-at-risk looks once per UTC day, at the day's first evaluation; a day on which
 * one goal fired is looked at again, so a second goal at risk is not held back a day.
 */
export function evaluateGoalAlert<S extends GoalRuleState>(
	kind: 'goal-reached' | 'goal-at-risk',
	state: S,
	observation: { now: number; history: HistoryRecord; goals: readonly Goal[] },
): GoalRuleStep<S> {
	const { now, history, goals } = observation;
	const today = utcDateOf(now);
	if (kind === 'goal-at-risk' && state.day === today) return { state, fire: null };
	const fired = state.firedPeriods ?? [];
	for (const goal of goals) {
		const figures = goalProgressOf(history, goal.metric, goal.period, now);
		const key = `${kind}:${goal.metric}:${goal.period}:${figures.start}`;
		if (fired.includes(key)) continue;
		const passed = (now - startOfDate(figures.start)) / ((daysBetween(figures.start, figures.end) + 1) * DAY_MS);
		const meets =
			kind === 'goal-reached'
				? figures.progress >= goal.target
				: passed >= AT_RISK_AFTER && figures.forecast !== null && figures.forecast.high < goal.target;
		if (!meets) continue;
		return {
			state: { ...state, firedPeriods: [...fired, key].slice(-REMEMBERED_PERIODS) },
			fire: {
				value: figures.progress,
				since: startOfDate(figures.start),
				goal: {
					metric: goal.metric,
					period: goal.period,
					start: figures.start,
					target: goal.target,
					progress: figures.progress,
					forecast: figures.forecast,
				},
			},
		};
	}
	return { state: kind === 'goal-at-risk' ? { ...state, day: today } : state, fire: null };
}
