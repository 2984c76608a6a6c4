import type { BotContext } from '../interactions/context.js';
import type { StatsRequest, StatsTarget } from './request.js';
import { fetchStatsFor } from './resolve-key.js';
import { buildStatsReply, type StatsReply } from './stats-reply.js';

/**
 * The stats use case: whose figures (target) and what view (request) in, the reply model out.
 * `/stats`, Share, `/export` and reports all go through here, so they show the same figures.
 */
export async function showStats(
	ctx: Pick<BotContext, 'links' | 'stats' | 'renderer'>,
	target: StatsTarget,
	request: StatsRequest & { locale: string },
): Promise<StatsReply> {
	const result = await fetchStatsFor(ctx, target);
	return buildStatsReply(ctx, result, request);
}
