import { utcDateOf } from '../history/utc-days.js';
import { comparePeriods, compareRange } from '../history/compare.js';
import { translator, type Locale } from '../i18n/index.js';
import { formatUtcDateRange } from '../render/format.js';
import type { DateRange } from './date-range.js';
import type { ReplyFile } from '../message.js';
import { buildStatsEmbed, type StatsEmbedOptions } from '../render/embed.js';
import type { StatsResult, StatsSnapshot } from '../stats-api/snapshot.js';
import type { HistoryRecord } from '../history/record.js';
import { ObjectViewMemo } from '../object-view-memo.js';
import type { APIEmbed } from 'discord.js';
import { historyWithSnapshot, type HistoryDeps } from './account-history.js';
import { renderStatsChart, type ChartDeps } from './chart-view.js';
import type { StatsRequest } from './request.js';
import type { StatsMetric } from '../stats-options.js';
import { NO_GOALS, withGoalFields, type EmbedGoals } from '../render/goal-fields.js';
import type { ChartNote } from '../render/chart.js';

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
	/**
	 * The goals set on the target (the member for scope:me, the server for scope:server), one field each; handed
	 * down by the caller, as goals sit above stats.
	 */
	goals?: EmbedGoals;
	/** The notes of the target's scope (src/notes), drawn on the chart's days; handed down as the goals are. */
	notes?: readonly ChartNote[];
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
		range: view.range ?? null,
		notes: view.notes,
	});
	const range = view.range ?? null;
	const embed = embedFor(result, record, today, range, {
		locale: view.locale,
		scope: view.scope,
		chartFileName: chart.fileName,
		notes: range ? [rangeLine(range, view.locale), ...chart.notes] : chart.notes,
		sharedBy: view.sharedBy ?? null,
		now,
		goals: view.goals ?? NO_GOALS,
	});
	const files =
		chart.png && chart.fileName ? [{ name: chart.fileName, data: chart.png, contentType: 'image/png' }] : [];
	return { embeds: [embed], files };
}

/**
 * Embeds last built from each snapshot and history record, by view. Neither is ever changed in place, so a cache-hit
 * /stats (the same snapshot, record, day and view) reuses its embed instead of comparing the periods and formatting
 * every figure again. Nothing changes an embed once built. A stale reply is built each time: it states its age.
 */
const lastEmbeds = new WeakMap<StatsSnapshot, ObjectViewMemo<HistoryRecord, APIEmbed>>();
/** Languages × scopes × chart notes that one snapshot's embeds are asked in at once; older views are built again. */
const EMBEDS_PER_RECORD = 16;

/** The reply names the chosen range's first and last day, in words and as typed (/stats, /export). */
export function rangeLine(range: DateRange, locale: Locale): string {
	const words = formatUtcDateRange(range.from, range.to, locale);
	return translator(locale)('range.shown', { range: words, from: range.from, to: range.to });
}

function embedFor(
	result: StatsResult,
	record: HistoryRecord | null,
	today: string,
	range: DateRange | null,
	{ goals, ...options }: Omit<StatsEmbedOptions, 'comparisons' | 'rangeComparisons'> & { goals: EmbedGoals },
): APIEmbed {
	const comparisons = () => ({
		comparisons: comparePeriods(record, result.snapshot, today),
		// A range's own comparison replaces the 7- and 30-day ones (null: the range is today alone).
		...(range ? { rangeComparisons: compareRange(record, range, today) } : {}),
	});
	const build = () => withGoalFields(buildStatsEmbed(result, { ...options, ...comparisons() }), goals, record, options);
	if (result.isStale || record === null) return build();
	let bySnapshot = lastEmbeds.get(result.snapshot);
	if (!bySnapshot) lastEmbeds.set(result.snapshot, (bySnapshot = new ObjectViewMemo(EMBEDS_PER_RECORD)));
	const view = JSON.stringify([
		today,
		options.locale,
		options.scope,
		options.chartFileName,
		options.notes,
		options.sharedBy,
		goals.key,
		range?.from ?? null,
		range?.to ?? null,
	]);
	return bySnapshot.get(record, view, build);
}
