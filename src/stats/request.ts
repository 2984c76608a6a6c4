import { UserFacingError } from '../errors.js';
import { utcDateOf } from '../history/utc-days.js';
import { checkRangeBounds, completeRange, type DateRange, type RangeBounds } from './date-range.js';
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
	/** The days asked for by `from`/`to`, which win over `days`; absent or null: `days` days ending today. */
	range?: DateRange | null;
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
	/** `from`/`to` as given and checked; null when neither was. */
	bounds?: RangeBounds | null;
}

/**
 * Checks what Discord enforces anyway (a stale client or a crafted request may not). Throws UserFacingError
 * naming the wrong option; needs no store, so a wrong option is answered before anything is read.
 */
export function parseStatsOptions(input: {
	scope: string | null;
	days: number | null;
	metric?: string | null;
	from?: string | null;
	to?: string | null;
	/** The bot's UTC date, against which `from`/`to` are checked; default: by the system clock. */
	today?: string;
}): StatsOptions {
	const scope = input.scope ?? 'me';
	const days = input.days ?? null;
	const metric = input.metric ?? null;
	if (!isStatsScope(scope)) throw new UserFacingError('stats.invalidScope');
	if (days !== null && !isStatsDays(days)) {
		throw new UserFacingError('stats.invalidDays', { choices: STATS_DAYS.join(', ') });
	}
	if (metric !== null && !isStatsMetric(metric)) throw new UserFacingError('stats.invalidMetric');
	const bounds = checkRangeBounds(input, input.today ?? utcDateOf(Date.now()));
	return { scope, days, metric, bounds };
}

/** The request, with the server's defaults where the member chose nothing. */
export function completeStatsRequest(options: StatsOptions, defaults: StatsDefaults = BUILT_IN_DEFAULTS): StatsRequest {
	const days = options.days ?? defaults.defaultDays;
	return {
		scope: options.scope,
		days,
		metric: options.metric ?? defaults.defaultMetric,
		// Only a request with a range carries one: a request without stays as it always was.
		...(options.bounds ? { range: completeRange(options.bounds, days) } : {}),
	};
}

/** Both steps at once, for a caller that has its defaults already (a button, a web page, a test). */
export function parseStatsRequest(
	input: Parameters<typeof parseStatsOptions>[0],
	defaults: StatsDefaults = BUILT_IN_DEFAULTS,
): StatsRequest {
	return completeStatsRequest(parseStatsOptions(input), defaults);
}
