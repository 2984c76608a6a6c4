import { UserFacingError } from '../errors.js';
import {
	DEFAULT_DAYS,
	DEFAULT_METRIC,
	isStatsDays,
	isStatsMetric,
	isStatsScope,
	STATS_DAYS,
	type StatsDays,
	type StatsMetric,
	type StatsScope,
} from '../stats-options.js';

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

/** What a server shows when the member leaves `days` or `metric` out (its `/settings`, else 30 days of sends). */
export interface StatsDefaults {
	defaultDays: StatsDays;
	defaultMetric: StatsMetric;
}

export const BUILT_IN_DEFAULTS: StatsDefaults = { defaultDays: DEFAULT_DAYS, defaultMetric: DEFAULT_METRIC };

/** The options as given: each one checked, null where the member left it out. */
export interface StatsOptions {
	scope: StatsScope;
	days: StatsDays | null;
	metric: StatsMetric | null;
}

/**
 * Checks what Discord enforces anyway (a stale client or a crafted request may not). Throws UserFacingError
 * naming the wrong option; needs no store, so a wrong option is answered before anything is read.
 */
export function parseStatsOptions(input: {
	scope: string | null;
	days: number | null;
	metric?: string | null;
}): StatsOptions {
	const scope = input.scope ?? 'me';
	const days = input.days ?? null;
	const metric = input.metric ?? null;
	if (!isStatsScope(scope)) throw new UserFacingError('stats.invalidScope');
	if (days !== null && !isStatsDays(days)) {
		throw new UserFacingError('stats.invalidDays', { choices: STATS_DAYS.join(', ') });
	}
	if (metric !== null && !isStatsMetric(metric)) throw new UserFacingError('stats.invalidMetric');
	return { scope, days, metric };
}

/** The request, with the server's defaults where the member chose nothing. */
export function completeStatsRequest(options: StatsOptions, defaults: StatsDefaults = BUILT_IN_DEFAULTS): StatsRequest {
	return {
		scope: options.scope,
		days: options.days ?? defaults.defaultDays,
		metric: options.metric ?? defaults.defaultMetric,
	};
}

/** Both steps at once, for a caller that has its defaults already (a button, a web page, a test). */
export function parseStatsRequest(
	input: { scope: string | null; days: number | null; metric?: string | null },
	defaults: StatsDefaults = BUILT_IN_DEFAULTS,
): StatsRequest {
	return completeStatsRequest(parseStatsOptions(input), defaults);
}
