/** Whose statistics: the member's own link, or the key a server admin linked for the server. */
export const STATS_SCOPES = ['me', 'server'] as const;
export type StatsScope = (typeof STATS_SCOPES)[number];

export function isStatsScope(value: unknown): value is StatsScope {
	return (STATS_SCOPES as readonly unknown[]).includes(value);
}
