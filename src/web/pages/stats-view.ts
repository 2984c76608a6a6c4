import {
	compareRange,
	comparePeriods,
	type Comparisons,
	type PeriodComparison,
	type RangeComparisons,
} from '../../history/compare.js';
import type { HistoryRecord } from '../../history/record.js';
import { dailySeries, type DailyFigures } from '../../history/daily-figures.js';
import { utcDateOf } from '../../history/utc-days.js';
import type { Locale } from '../../i18n/index.js';
import { buildChartConfig, type BuiltChart, type ChartInput } from '../../render/chart.js';
import type { StatsResult } from '../../stats-api/snapshot.js';
import { historyWithSnapshot, type HistoryDeps } from '../../stats/account-history.js';
import { chartInputOf } from '../../stats/chart-view.js';
import { daysEndingOn, rangeLength, type DateRange } from '../../stats/date-range.js';
import type { StatsTarget } from '../../stats/request.js';
import { fetchStatsFor, type FetchDeps } from '../../stats/resolve-key.js';
import type { StatsDays, StatsMetric } from '../../stats-options.js';
import { figuresOfGoals, type GoalFigures } from '../../goals/goal-figures.js';
import { goalsForTarget } from '../../goals/goal-store.js';
import { notesForTarget } from '../../notes/note-store.js';
import type { ChartNote } from '../../render/chart.js';

export type StatsViewDeps = FetchDeps & HistoryDeps;

/** What a dashboard page and its JSON show: the figures of `/stats` for the same account and days. */
export interface DashboardStats {
	result: StatsResult;
	days: StatsDays;
	metric: StatsMetric;
	today: string;
	comparisons: Comparisons;
	/** The range the member chose (`?from=&to=`), or null: `days` days ending today. */
	range: DateRange | null;
	/** The chosen range's complete days against as many before; null without a range or with today alone. */
	rangeComparisons: RangeComparisons | null;
	/** The days shown, oldest first, null where unknown (the `/export` rows): the range, else `days` to today. */
	series: DailyFigures[];
	/** The Chart.js configuration the PNG renderer would draw, or null with the reason in `notes`. */
	chart: BuiltChart | null;
	/** What the chart is built from (the bot's chart input), for a PNG in another theme; null with `chart`. */
	chartInput: ChartInput | null;
	/** The dates the chart shows (it starts where the history does). */
	chartDates: string[];
	notes: string[];
	/** The goals set on the target, with progress and forecast (the /stats embed's goal fields). */
	goals: GoalFigures[];
	/** The notes of the target's scope on the days of `series` (the chart draws those of its days), oldest first. */
	dayNotes: ChartNote[];
}

/**
 * Reads the target's figures through the stats core (the same fetch, history and comparisons as `/stats`),
 * in the page's language. Throws what `fetchStatsFor` throws (UserFacingError for no link or a refused key).
 */
export async function loadDashboardStats(
	deps: StatsViewDeps,
	target: StatsTarget,
	view: {
		days: StatsDays;
		metric: StatsMetric;
		locale: Locale;
		serverName?: string | null;
		now?: number;
		range?: DateRange | null;
	},
	foldHistory: FoldHistory = foldEveryTime,
): Promise<DashboardStats> {
	const now = view.now ?? Date.now();
	const today = utcDateOf(now);
	const goals = goalsForTarget(deps, target);
	const scopeNotes = notesForTarget(deps, target);
	// Awaited below; this only keeps a failure while the fetch is out from counting as unhandled.
	scopeNotes.catch(() => undefined);
	const result = await fetchStatsFor(deps, target);
	const record = await foldHistory(deps, result, now, today);
	const notesOfScope = await scopeNotes;
	const { input, notes } = chartInputOf(record, {
		metric: view.metric,
		days: view.days,
		scope: target.scope,
		locale: view.locale,
		accountName: result.snapshot.meta.user,
		serverName: view.serverName ?? null,
		today,
		range: view.range ?? null,
		notes: notesOfScope,
	});
	const range = view.range ?? null;
	const shown = range ?? daysEndingOn(today, view.days);
	const series = dailySeries(record, { from: shown.from, to: shown.to, today });
	return {
		result,
		days: view.days,
		metric: view.metric,
		today,
		comparisons: comparePeriods(record, result.snapshot, today),
		range,
		rangeComparisons: range ? compareRange(record, range, today) : null,
		series,
		chart: input ? buildChartConfig(input, { theme: 'light' }) : null,
		chartInput: input,
		chartDates: input ? input.points.map((point) => point.date) : [],
		notes,
		goals: figuresOfGoals(await goals, record, now),
		dayNotes: notesOnDays(notesOfScope, series),
	};
}

/** The notes on the days a page shows (its series' first to last day), as `{date, text}`. */
function notesOnDays(notes: readonly ChartNote[], series: readonly DailyFigures[]): ChartNote[] {
	const from = series[0]?.date;
	const to = series.at(-1)?.date;
	if (from === undefined || to === undefined) return [];
	return notes.filter((note) => note.date >= from && note.date <= to).map(({ date, text }) => ({ date, text }));
}

/** How long a folded history is reused for pages of the same snapshot (days and metric change, figures not). */
const FOLDED_TTL_MS = 10_000;
const FOLDED_LIMIT = 100;

/** The history with a snapshot folded in, as `/stats` builds it; a cache of recent ones or the plain fold. */
export type FoldHistory = (
	deps: StatsViewDeps,
	result: StatsResult,
	now: number,
	today: string,
) => Promise<HistoryRecord>;

const foldEveryTime: FoldHistory = (deps, result, now) => historyWithSnapshot(deps, result, now);

/**
 * Reuses a folded history for 10 s per snapshot: reading and folding a year of days costs more than the rest
 * of a page, and a member switching days or metric asks for the same record again. A new snapshot (the stats
 * cache expired) or a new UTC day makes a new key. One per dashboard app.
 */
export function createFoldedHistoryCache(): FoldHistory {
	const folded = new Map<string, { at: number; record: Promise<HistoryRecord> }>();
	return (deps, result, now, today) => {
		const name = result.snapshot.meta.user;
		if (name === null) return historyWithSnapshot(deps, result, now);
		const key = `${name}\u0000${result.fetchedAt}\u0000${result.isStale}\u0000${today}`;
		const hit = folded.get(key);
		if (hit && now - hit.at < FOLDED_TTL_MS) return hit.record;
		const record = historyWithSnapshot(deps, result, now);
		folded.delete(key);
		folded.set(key, { at: now, record });
		record.catch(() => folded.delete(key));
		for (const [oldKey, entry] of folded) {
			if (folded.size <= FOLDED_LIMIT && now - entry.at < FOLDED_TTL_MS) break;
			folded.delete(oldKey);
		}
		return record;
	};
}

/**
 * A period comparison as JSON: the complete UTC days compared (`from`..`to`, ending yesterday), both totals,
 * and the change in percent with one decimal, `"new"`, or null when unknown.
 */
function comparisonJson(comparison: PeriodComparison) {
	const { change } = comparison;
	let value: number | 'new' | null = null;
	if (change.kind === 'percent') value = Math.round(change.value * 10) / 10;
	else if (change.kind === 'new') value = 'new';
	return {
		from: comparison.from,
		to: comparison.to,
		current: comparison.current,
		previous: comparison.previous,
		change_percent: value,
	};
}

/** The JSON view (docs/web-dashboard.md, "What members see"). */
export function statsJson(stats: DashboardStats) {
	const { snapshot } = stats.result;
	const { rangeComparisons } = stats;
	const periods = (metric: 'sends' | 'joins') => ({
		// Today is not over: its figure so far beside yesterday's total, without a change.
		day: { today: stats.comparisons[metric].day.today, yesterday: stats.comparisons[metric].day.yesterday },
		week: comparisonJson(stats.comparisons[metric].week),
		month: comparisonJson(stats.comparisons[metric].month),
		// A chosen range's complete days against as many before.
		...(rangeComparisons ? { range: comparisonJson(rangeComparisons[metric]) } : {}),
	});
	const shown = stats.range ?? daysEndingOn(stats.today, stats.days);
	return {
		account: snapshot.meta.user,
		generated_at: snapshot.meta.generatedAt,
		stale: stats.result.isStale,
		days: rangeLength(shown),
		from: shown.from,
		to: shown.to,
		metric: stats.metric,
		totals: {
			sends: {
				today: snapshot.sends.today,
				weekly: snapshot.sends.weekly,
				monthly: snapshot.sends.monthly,
				all_time: snapshot.sends.allTime,
				failed_all_time: snapshot.sends.failedAllTime,
			},
			joins: {
				today: snapshot.joins.today,
				weekly: snapshot.joins.weekly,
				monthly: snapshot.joins.monthly,
				all_time: snapshot.joins.allTime,
			},
		},
		comparisons: { sends: periods('sends'), joins: periods('joins') },
		series: stats.series.map((day) => ({
			date: day.date,
			sends: day.sends,
			joins: day.joins,
			failed_sends: day.failedSends,
		})),
		goals: stats.goals.map(goalJson),
		notes: stats.dayNotes.map((note) => ({ date: note.date, text: note.text })),
	};
}

/** One goal as the JSON view gives it: unrounded figures, the period's first and last UTC day. */
function goalJson(goal: GoalFigures) {
	const { forecast } = goal;
	return {
		metric: goal.metric,
		period: goal.period,
		start: goal.start,
		end: goal.end,
		target: goal.target,
		progress: goal.progress,
		forecast: forecast && { expected: forecast.expected, low: forecast.low, high: forecast.high },
	};
}
