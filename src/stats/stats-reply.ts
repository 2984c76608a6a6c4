import type { BotContext } from '../interactions/context.js';
import type { ReplyFile } from '../interactions/types.js';
import { renderChartSafely } from '../render/chart-output.js';
import { buildStatsEmbed } from '../render/embed.js';
import type { StatsResult } from '../stats-api/snapshot.js';
import type { APIEmbed } from 'discord.js';
import type { StatsRequest } from './request.js';

/** The reply model of a stats request: an embed and, when a chart could be drawn, its PNG. */
export interface StatsReply {
	embeds: APIEmbed[];
	files: ReplyFile[];
}

/** The embed and, when the renderer manages, the chart as an attached PNG the embed points at. */
export async function buildStatsReply(
	ctx: Pick<BotContext, 'renderer'>,
	result: StatsResult,
	options: StatsRequest & { locale: string },
): Promise<StatsReply> {
	const chart = await renderChartSafely(ctx.renderer, result.snapshot.sends.dailyBreakdown, {
		days: options.days,
		locale: options.locale,
	});
	const embed = buildStatsEmbed(result, {
		locale: options.locale,
		days: options.days,
		scope: options.scope,
		chartFileName: chart.png ? chart.fileName : null,
		chartNote: chart.note,
	});
	const files = chart.png && chart.fileName ? [{ name: chart.fileName, data: chart.png }] : [];
	return { embeds: [embed], files };
}
