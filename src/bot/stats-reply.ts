import { AttachmentBuilder, type APIEmbed } from 'discord.js';
import { renderChartSafely } from '../render/chart-output.js';
import type { ChartDays } from '../render/chart.js';
import { buildStatsEmbed } from '../render/embed.js';
import type { StatsResult } from '../stats-api/snapshot.js';
import type { BotContext } from './context.js';
import type { StatsScope } from './resolve-key.js';

export interface StatsReply {
	embeds: APIEmbed[];
	files: AttachmentBuilder[];
}

/** The embed and, when the renderer manages, the chart as an attached PNG the embed points at. */
export async function buildStatsReply(
	ctx: BotContext,
	result: StatsResult,
	options: { locale: string; days: ChartDays; scope: StatsScope },
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
	const files = chart.png && chart.fileName ? [new AttachmentBuilder(chart.png, { name: chart.fileName })] : [];
	return { embeds: [embed], files };
}
