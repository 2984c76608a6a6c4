import { utcDateOf } from '../history/utc-days.js';
import { comparePeriods } from '../history/compare.js';
import type { Locale } from '../i18n/index.js';
import type { ReplyFile } from '../message.js';
import { buildStatsEmbed } from '../render/embed.js';
import type { StatsResult } from '../stats-api/snapshot.js';
import type { APIEmbed } from 'discord.js';
import { historyWithSnapshot, type HistoryDeps } from './account-history.js';
import { renderStatsChart, type ChartDeps } from './chart-view.js';
import type { StatsRequest } from './request.js';
import type { StatsMetric } from '../stats-options.js';

/** The reply model of a stats request: an embed and, when a chart could be drawn, its PNG. */
export interface StatsReply {
	embeds: APIEmbed[];
	files: ReplyFile[];
}

/** How the reply is worded and for whom: private replies in the member's language, public ones in the server's. */
export interface StatsView extends Omit<StatsRequest, 'metric'> {
	/** Default `sends`. */
	metric?: StatsMetric;
	locale: Locale;
	/** Set on a public copy: the member who posted it, named in it. */
	sharedBy?: string | null;
	/** Named in the chart for scope:server when known. */
	serverName?: string | null;
	/** The bot's clock, epoch ms (tests inject it); decides which UTC day is today. */
	now?: number;
}

/** The history a snapshot is folded into, the renderer that draws the chart, and the bot's clock (default Date.now). */
export type StatsReplyDeps = HistoryDeps & ChartDeps & { now?: () => number };

/** The embed (each period against the one before) and, when the renderer manages, the chart the embed points at. */
export async function buildStatsReply(ctx: StatsReplyDeps, result: StatsResult, view: StatsView): Promise<StatsReply> {
	const now = view.now ?? ctx.now?.() ?? Date.now();
	const today = utcDateOf(now);
	const record = await historyWithSnapshot(ctx, result, now);
	const chart = await renderStatsChart(ctx, record, {
		metric: view.metric ?? 'sends',
		days: view.days,
		scope: view.scope,
		locale: view.locale,
		accountName: result.snapshot.meta.user,
		serverName: view.serverName ?? null,
		today,
	});
	const embed = buildStatsEmbed(result, {
		locale: view.locale,
		scope: view.scope,
		chartFileName: chart.fileName,
		notes: chart.notes,
		comparisons: comparePeriods(record, result.snapshot, today),
		sharedBy: view.sharedBy ?? null,
		now,
	});
	const files =
		chart.png && chart.fileName ? [{ name: chart.fileName, data: chart.png, contentType: 'image/png' }] : [];
	return { embeds: [embed], files };
}
