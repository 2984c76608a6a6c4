import { UserFacingError } from '../errors.js';
import { isStatsScope, type StatsScope } from '../stats-options.js';

/** The ranges `/stats days:` and `/export days:` offer; beyond the endpoint's 30 days they come from the history. */
export const STATS_DAYS = [7, 14, 30, 90, 180, 365] as const;
export type StatsDays = (typeof STATS_DAYS)[number];
export const DEFAULT_DAYS: StatsDays = 30;

/** What the chart shows: sends per day, joins per day, or joins per 100 sends per day. */
export const STATS_METRICS = ['sends', 'joins', 'conversion'] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];
export const DEFAULT_METRIC: StatsMetric = 'sends';

/** What a member asked to see. */
export interface StatsRequest {
	scope: StatsScope;
	days: StatsDays;
	metric: StatsMetric;
}

/** Whose figures, seen from where: the target of a stats request. */
export interface StatsTarget {
	scope: StatsScope;
	userId: string;
	guildId: string | null;
}

export function isStatsDays(value: unknown): value is StatsDays {
	return (STATS_DAYS as readonly unknown[]).includes(value);
}

export function isStatsMetric(value: unknown): value is StatsMetric {
	return (STATS_METRICS as readonly unknown[]).includes(value);
}

/** Checks what Discord enforces anyway: a stale client or a crafted request may not. */
export function parseStatsRequest(input: {
	scope: string | null;
	days: number | null;
	metric?: string | null;
}): StatsRequest {
	const scope = input.scope ?? 'me';
	const days = input.days ?? DEFAULT_DAYS;
	const metric = input.metric ?? DEFAULT_METRIC;
	if (!isStatsScope(scope)) throw new UserFacingError('stats.invalidScope');
	if (!isStatsDays(days)) throw new UserFacingError('stats.invalidDays', { choices: STATS_DAYS.join(', ') });
	if (!isStatsMetric(metric)) throw new UserFacingError('stats.invalidMetric');
	return { scope, days, metric };
}
