// A goal: a target for sends or joins in a calendar month or an ISO week (UTC), owned by the member or the server
// it was set on. One stored entry per owner holds all of its goals, so a /stats reply reads them with one get.
import { MEMBER_GOALS_PREFIX, SERVER_GOALS_PREFIX } from '../core/record-kinds.js';

export const GOAL_METRICS = ['sends', 'joins'] as const;
export type GoalMetric = (typeof GOAL_METRICS)[number];
export const GOAL_PERIODS = ['month', 'week'] as const;
export type GoalPeriod = (typeof GOAL_PERIODS)[number];

export const MAX_GOALS_PER_SCOPE = 4;
export const GOALS_SCHEMA_VERSION = 1;

/** Whose goals: the member's own (their link) or the server's (its key). Never the key itself. */
export type GoalOwner = { scope: 'me'; userId: string } | { scope: 'server'; guildId: string };

export interface Goal {
	metric: GoalMetric;
	period: GoalPeriod;
	/** Whole number ≥ 1. */
	target: number;
	setBy: string;
	/** Epoch ms. */
	setAt: number;
}

/** What is stored under goalsKey(owner): the owner's goals, ordered by metric then period. */
export interface GoalsRecord {
	v: typeof GOALS_SCHEMA_VERSION;
	goals: Goal[];
}

export const goalsKey = (owner: GoalOwner): string =>
	owner.scope === 'server' ? `${SERVER_GOALS_PREFIX}${owner.guildId}` : `${MEMBER_GOALS_PREFIX}${owner.userId}`;

export function isGoalMetric(value: unknown): value is GoalMetric {
	return (GOAL_METRICS as readonly unknown[]).includes(value);
}

export function isGoalPeriod(value: unknown): value is GoalPeriod {
	return (GOAL_PERIODS as readonly unknown[]).includes(value);
}

/** Sends before joins, months before weeks: the order every listing shows. */
export function sortGoals(goals: readonly Goal[]): Goal[] {
	const rank = (goal: Goal) => GOAL_METRICS.indexOf(goal.metric) * 2 + GOAL_PERIODS.indexOf(goal.period);
	return [...goals].sort((a, b) => rank(a) - rank(b));
}

/** A stored value back into goals; the goals that parse (anything else is dropped). */
export function parseGoalsRecord(raw: unknown): Goal[] {
	if (typeof raw !== 'object' || raw === null) return [];
	const record = raw as Partial<GoalsRecord>;
	if (record.v !== GOALS_SCHEMA_VERSION || !Array.isArray(record.goals)) return [];
	return sortGoals(
		record.goals.filter(
			(goal: Partial<Goal>) =>
				isGoalMetric(goal.metric) &&
				isGoalPeriod(goal.period) &&
				Number.isInteger(goal.target) &&
				(goal.target ?? 0) >= 1,
		),
	);
}
