import type { HistoryRecord } from '../history/record.js';
import { ObjectViewMemo } from '../object-view-memo.js';
import { AVERAGE_LEAD_IN_DAYS, buildChartSeries } from '../history/chart-series.js';
import { translator, type Locale, type Translate } from '../i18n/index.js';
import type { ChartRenderer } from '../render/chart-renderer.js';
import { isSameName, type ChartInput, type ChartLabels, type ChartNote } from '../render/chart.js';
import type { ChartPoint } from '../history/chart-series.js';
import { renderChartSafely, type ChartLogger } from '../render/draw-chart.js';
import { formatUtcDate, formatUtcDateRange, truncate } from '../render/format.js';
import type { StatsScope } from '../stats-options.js';
import type { StatsDays, StatsMetric } from '../stats-options.js';
import { rangeLength, type DateRange } from './date-range.js';

const ACCOUNT_NAME_MAX = 40;
const SERVER_NAME_MAX = 32;

export interface ChartView {
	metric: StatsMetric;
	days: StatsDays;
	scope: StatsScope;
	locale: Locale;
	/** `meta.user`, as the picture names it (an image needs no markdown escaping). */
	accountName: string | null;
	/** Named in the title for scope:server when the caller knows it. */
	serverName?: string | null;
	/** The bot's UTC date, `YYYY-MM-DD`. */
	today: string;
	/**
	 * The notes of the chart's own scope (the server's on a server chart, the member's on theirs), any days: the
	 * chart draws those of the days it shows. Handed down by the caller, as notes sit above stats.
	 */
	notes?: readonly ChartNote[];
	/** The days asked for by `from`/`to` (they win over `days`); absent or null: `days` days ending today. */
	range?: DateRange | null;
}

export interface ChartDeps {
	renderer: ChartRenderer;
	log: ChartLogger;
}

export interface ChartOutcome {
	png: Buffer | null;
	fileName: string | null;
	/** Translated lines for the embed: where the chart starts, why there is none, when joins arrive. */
	notes: string[];
}

/** A chart's input, or null when there is none to draw, and the lines the embed adds about it. */
export interface ChartInputOutcome {
	input: ChartInput | null;
	notes: string[];
}

/**
 * The chart of a history record: the days asked for, cut to where the history starts, with translated texts.
 * The input is shared by every caller asking with the same record and view: read it, never change it.
 */
export function chartInputOf(record: HistoryRecord | null, view: ChartView): ChartInputOutcome {
	if (record === null) return computeChartInput(record, view);
	const key = JSON.stringify([
		view.days,
		view.metric,
		view.scope,
		view.locale,
		view.today,
		view.accountName,
		view.serverName ?? null,
		view.range?.from ?? null,
		view.range?.to ?? null,
		notesKey(view.notes),
	]);
	const outcome = lastInputs.get(record, key, () => computeChartInput(record, view));
	return { input: outcome.input, notes: [...outcome.notes] };
}

/**
 * The chart inputs last made from each history record, by view. Records are never changed in place, so a cache-hit
 * /stats (the same record, view and day) gets the same input without the year of history being walked again, and
 * the same input gives the renderer's memo the same chart config. Up to 16 views of a record are kept (days ×
 * metrics × languages asked at once); older ones are made again.
 */
const lastInputs = new ObjectViewMemo<HistoryRecord, ChartInputOutcome>(16);

function computeChartInput(record: HistoryRecord | null, view: ChartView): ChartInputOutcome {
	const t = translator(view.locale);
	const range = view.range ?? null;
	const days = range ? rangeLength(range) : view.days;
	const series = buildChartSeries(record, { days, metric: view.metric, today: view.today, to: range?.to });
	if (view.metric !== 'sends' && series.firstFigureDate !== null) {
		const key = view.metric === 'joins' ? 'stats.joinsNotYet' : 'stats.conversionNotYet';
		return { input: null, notes: [t(key, { date: formatUtcDate(series.firstFigureDate, view.locale) })] };
	}
	if (series.firstKnownDate === null) return { input: null, notes: [t('embed.noDailyFigures')] };

	const notes: string[] = [];
	const firstKnown = series.firstKnownDate;
	if (range !== null && firstKnown > range.to) {
		// The whole range lies before the history: no chart of empty days, but the day figures start.
		return { input: null, notes: [t('range.knownFrom', { date: formatUtcDate(firstKnown, view.locale) })] };
	}
	let points = series.points.map(rounded);
	let seed = series.leadIn.map(rounded);
	const start = points.findIndex((point) => point.date >= firstKnown);
	if (start > 0) {
		// Nothing is known before the history starts: the chart begins there rather than with empty weeks.
		seed = [...seed, ...points.slice(0, start)].slice(-AVERAGE_LEAD_IN_DAYS);
		points = points.slice(start);
		notes.push(t('embed.historySince', { date: formatUtcDate(firstKnown, view.locale) }));
	}
	const from = points[0]?.date ?? view.today;
	return {
		input: {
			metric: view.metric,
			points,
			averageSeed: seed.map((point) => point.value),
			locale: view.locale,
			labels: chartLabels(t, view, from),
			...(range !== null && range.to < view.today ? { lastIsPartial: false } : {}),
			...notesShown(view.notes, from, points.at(-1)?.date ?? view.today),
		},
		notes,
	};
}

/** Builds and renders the chart; a renderer failure costs the picture, never the reply. */
export async function renderStatsChart(
	ctx: ChartDeps,
	record: HistoryRecord | null,
	view: ChartView,
): Promise<ChartOutcome> {
	const { input, notes } = chartInputOf(record, view);
	if (input === null) return { png: null, fileName: null, notes };
	const rendered = await renderChartSafely(ctx.renderer, input, { log: ctx.log });
	const t = translator(view.locale);
	if (rendered.problem === 'failed') notes.push(t('embed.chartUnavailable'));
	else if (rendered.problem === 'noData') notes.push(t('embed.noDailyFigures'));
	if (rendered.png === null) return { png: null, fileName: null, notes };
	return { png: rendered.png, fileName: chartFileName(view.days, view.metric, view.range), notes };
}

/** The attachment name for a chart: ASCII, no spaces, so the embed's `attachment://` matches it exactly. */
export function chartFileName(days: StatsDays, metric: StatsMetric, range?: DateRange | null): string {
	const prefix = metric === 'sends' ? 'stats' : `stats-${metric}`;
	return range ? `${prefix}-${range.from}-${range.to}.png` : `${prefix}-${days}d.png`;
}

/**
 * The picture stands on its own when forwarded: line one names the account (and the server for
 * scope:server), line two the metric and the UTC date range with the year.
 */
export function chartLabels(t: Translate, view: ChartView, from: string): ChartLabels {
	const account = view.accountName?.trim()
		? truncate(view.accountName.replace(/\s+/gu, ' ').trim(), ACCOUNT_NAME_MAX)
		: t('embed.titleNoAccount');
	// A server named like its account is named once.
	const server =
		view.serverName?.trim() && !isSameName(view.accountName ?? '', view.serverName)
			? truncate(view.serverName.trim(), SERVER_NAME_MAX)
			: null;
	let title = account;
	if (view.scope === 'server') {
		title = server ? t('chart.subjectServer', { account, server }) : t('chart.subjectServerUnnamed', { account });
	}
	return {
		title,
		subtitle: t(`chart.title.${view.metric}`, {
			range: formatUtcDateRange(from, view.range?.to ?? view.today, view.locale),
		}),
		yAxis: t(`chart.yAxis.${view.metric}`),
		series: t(`chart.legend.${view.metric}`),
		average: t('chart.legend.average', { count: 7 }),
		partialToday: t('chart.legend.partialToday'),
	};
}

/** Keys of the frozen note lists a store hands out (the same list on every read while it is kept). */
const notesKeys = new WeakMap<readonly ChartNote[], string>();

/**
 * The notes in a memo key, so the same notes give the same chart input (and so the same config and PNG). A frozen
 * list is keyed once: a cache-hit /stats with 50 notes then costs one lookup more than one without.
 */
function notesKey(notes: readonly ChartNote[] | undefined): string {
	if (!notes || notes.length === 0) return '';
	const known = notesKeys.get(notes);
	if (known !== undefined) return known;
	let key = '';
	for (const note of notes) key += `${note.date} ${note.text}\n`;
	if (Object.isFrozen(notes)) notesKeys.set(notes, key);
	return key;
}

/** The notes on the days from `from` to `to` (a chart's days), as plain copies; none when there are none. */
function notesShown(notes: readonly ChartNote[] | undefined, from: string, to: string): { notes?: ChartNote[] } {
	const shown = (notes ?? [])
		.filter((note) => note.date >= from && note.date <= to)
		.map(({ date, text }) => ({ date, text }));
	return shown.length === 0 ? {} : { notes: shown };
}

/** Conversion is a ratio: two decimals are all a chart can show. */
function rounded(point: { date: string; value: number | null }): ChartPoint {
	return { date: point.date, value: point.value === null ? null : Math.round(point.value * 100) / 100 };
}
