import type { Locale } from '../i18n/index.js';
import type { StatsTarget } from './request.js';
import type { StatsDays, StatsMetric } from '../stats-options.js';
import type { StatsScope } from '../stats-options.js';
import { fetchStatsFor, type FetchDeps } from './resolve-key.js';
import { buildStatsReply, type StatsReply, type StatsReplyDeps, type StatsView } from './stats-reply.js';

/** Everything the stats use case reads: the link, the endpoint, the history and the renderer. */
export type StatsDeps = FetchDeps & StatsReplyDeps;

/**
 * The stats use case: whose figures (target) and what view in, the reply model out. `/stats`, Share and
 * reports all go through here, so they show the same figures.
 */
export async function showStats(
	ctx: StatsDeps,
	target: StatsTarget,
	view: Omit<StatsView, 'scope'> & { scope?: StatsScope },
): Promise<StatsReply> {
	const result = await fetchStatsFor(ctx, target);
	// The target decides the scope; a view's own scope (older callers pass one) cannot contradict it.
	return buildStatsReply(ctx, result, { ...view, scope: target.scope });
}

/**
 * The server account's embed and chart, as a scheduled report posts it: no interaction, no member, the
 * language given by the caller. Throws UserFacingError `stats.noServerLink` / `errors.serverKeyRejected` /
 * `errors.serverRelinkNeeded` when the server's key is missing or unusable.
 */
export function buildServerReport(
	ctx: StatsDeps,
	guildId: string,
	options: { days: StatsDays; locale: Locale; metric?: StatsMetric; serverName?: string | null; now?: number },
): Promise<StatsReply> {
	return showStats(
		ctx,
		{ scope: 'server', userId: '', guildId },
		{
			days: options.days,
			metric: options.metric ?? 'sends',
			locale: options.locale,
			serverName: options.serverName ?? null,
			now: options.now,
		},
	);
}
