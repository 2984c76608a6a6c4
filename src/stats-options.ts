/** What a stats request may ask for, shared by every front end, the settings and the history. */

/** Whose statistics: the member's own link, or the key a server admin linked for the server. */
export const STATS_SCOPES = ['me', 'server'] as const;
export type StatsScope = (typeof STATS_SCOPES)[number];

export function isStatsScope(value: unknown): value is StatsScope {
	return (STATS_SCOPES as readonly unknown[]).includes(value);
}

/** The ranges `/stats days:` and `/export days:` offer; beyond the endpoint's 30 days they come from the history. */
export const STATS_DAYS = [7, 14, 30, 90, 180, 365] as const;
export type StatsDays = (typeof STATS_DAYS)[number];
export const DEFAULT_DAYS: StatsDays = 30;

/** What the chart shows: sends per day, joins per day, or joins per 100 sends per day. */
export const STATS_METRICS = ['sends', 'joins', 'conversion'] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];
export const DEFAULT_METRIC: StatsMetric = 'sends';

export function isStatsDays(value: unknown): value is StatsDays {
	return (STATS_DAYS as readonly unknown[]).includes(value);
}

export function isStatsMetric(value: unknown): value is StatsMetric {
	return (STATS_METRICS as readonly unknown[]).includes(value);
}
