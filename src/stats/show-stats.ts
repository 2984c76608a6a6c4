import type { GuildApi } from '../guild-api.js';
import type { Locale } from '../i18n/index.js';
import type { StatsTarget } from './request.js';
import type { StatsDays, StatsMetric } from '../stats-options.js';
import type { StatsScope } from '../stats-options.js';
import { fetchStatsFor, type FetchDeps } from './resolve-key.js';
import type { EmbedGoals } from '../render/goal-fields.js';
import type { ChartNote } from '../render/chart.js';
import { buildStatsReply, type StatsReply, type StatsReplyDeps, type StatsView } from './stats-reply.js';

/**
 * Everything the stats use case reads: the link, the endpoint, the history, the renderer, and Discord for the
 * server's name in a scope:server chart (absent: the chart says "server account").
 */
export type StatsDeps = FetchDeps & StatsReplyDeps & { guildApi?: Pick<GuildApi, 'guildName'> };

/**
 * The stats use case: whose figures (target) and what view in, the reply model out. `/stats`, Share and
 * reports all go through here, so they show the same figures. The goals shown are the caller's to read (goals sit
 * above stats); a promise of them is read while the stats are fetched.
 */
export async function showStats(
	ctx: StatsDeps,
	target: StatsTarget,
	view: Omit<StatsView, 'scope' | 'goals' | 'notes'> & { scope?: StatsScope },
	goals: EmbedGoals | Promise<EmbedGoals>,
	notes: ChartNotes = [],
): Promise<StatsReply> {
	const serverName = serverNameFor(ctx, target, view.serverName);
	const goalsRead = Promise.resolve(goals);
	const notesRead = Promise.resolve(notes);
	// When the stats fetch throws first, the goals' (or notes') own failure is the lesser one: it must not become an
	// unhandled rejection (which ends the process) while the fetch's error is what the member is told.
	goalsRead.catch(() => undefined);
	notesRead.catch(() => undefined);
	const result = await fetchStatsFor(ctx, target);
	// The target decides the scope; a view's own scope (older callers pass one) cannot contradict it.
	return buildStatsReply(ctx, result, {
		...view,
		scope: target.scope,
		serverName: await serverName,
		goals: await goalsRead,
		notes: await notesRead,
	});
}

/** The notes of the target's scope a chart draws (src/notes' notesForTarget), read while the stats are fetched. */
export type ChartNotes = readonly ChartNote[] | Promise<readonly ChartNote[]>;

/**
 * The server a scope:server chart names: the caller's when it gave one, else Discord's (read with the bot token,
 * cached), asked while the stats are fetched. A name Discord cannot give never costs the reply.
 */
function serverNameFor(ctx: StatsDeps, target: StatsTarget, given: string | null | undefined): Promise<string | null> {
	if (given !== undefined) return Promise.resolve(given);
	if (target.scope !== 'server' || !target.guildId || !ctx.guildApi) return Promise.resolve(null);
	return ctx.guildApi.guildName(target.guildId).catch(() => null);
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
	goals: EmbedGoals | Promise<EmbedGoals>,
	notes: ChartNotes = [],
): Promise<StatsReply> {
	return showStats(
		ctx,
		{ scope: 'server', userId: '', guildId },
		{
			days: options.days,
			metric: options.metric ?? 'sends',
			locale: options.locale,
			serverName: options.serverName,
			now: options.now,
		},
		goals,
		notes,
	);
}
