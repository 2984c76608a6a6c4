import type { StatsMetric } from '../stats-options.js';
import { addDays, daysBetween } from './utc-days.js';
import type { HistoryRecord } from './record.js';
import { dailySeries, recordedDates } from './daily-figures.js';
import type { DailyFigures } from './daily-figures.js';

/** Days before the first point that a 7-day trailing average needs. */
export const AVERAGE_LEAD_IN_DAYS = 6;

export interface ChartSeriesOptions {
	/** Points to return, ending on `to` (the chart offers 7, 14, 30, 90, 180 and 365, or any range up to 365). */
	days: number;
	metric: StatsMetric;
	/** The bot's UTC date, `YYYY-MM-DD`. */
	today: string;
	/** The last day shown, not after today; default today. */
	to?: string;
}

/** One bar of a chart. */
export interface ChartPoint {
	/** YYYY-MM-DD, a UTC calendar day. */
	date: string;
	/** null where unknown (a gap, never 0); conversion is joins per 100 sends, unrounded. */
	value: number | null;
}

export interface ChartSeries {
	/** `days` points, oldest first, the last one `to` (today, partial, unless an earlier day was asked for). */
	points: ChartPoint[];
	/** The 6 days before the first point, oldest first, so the average of the first points covers 7 days. */
	leadIn: ChartPoint[];
	/** The earliest date the whole history has a figure of this metric for ("history starts on …"), or null. */
	firstKnownDate: string | null;
	/**
	 * Joins and conversion only: set while no whole day's joins are known yet, to the UTC date from which the
	 * first figure exists: joins of day D need a snapshot on D and one on D+1, and every `/stats` folds one in.
	 */
	firstFigureDate: string | null;
}

function valueOf(figures: DailyFigures, metric: StatsMetric): number | null {
	if (metric === 'sends') return figures.sends;
	if (metric === 'joins') return figures.joins;
	if (figures.joins === null || figures.sends === null || figures.sends === 0) return null;
	return (figures.joins * 100) / figures.sends;
}

/** The points of a chart of `days` days ending today, with what the reply needs to explain gaps. */
export function buildChartSeries(record: HistoryRecord | null, options: ChartSeriesOptions): ChartSeries {
	const { days, metric, today } = options;
	const to = options.to !== undefined && options.to < today ? options.to : today;
	const windowStart = addDays(to, -(days - 1 + AVERAGE_LEAD_IN_DAYS));
	const oldest = recordedDates(record)[0];
	// One pass over the whole history and the window: the days before the window only tell where history starts.
	const from = oldest !== undefined && oldest < windowStart ? oldest : windowStart;
	const whole = dailySeries(record, { from, to: today, today });
	// The days after `to` stay in `whole`: they still tell where the history starts and whether joins are known.
	const end = whole.length - daysBetween(to, today);
	const shown = whole.slice(end - (days + AVERAGE_LEAD_IN_DAYS), end);
	const toPoint = (figures: DailyFigures): ChartPoint => ({ date: figures.date, value: valueOf(figures, metric) });
	const firstKnown = whole.find((figures) => valueOf(figures, metric) !== null);
	return {
		points: shown.slice(AVERAGE_LEAD_IN_DAYS).map(toPoint),
		leadIn: shown.slice(0, AVERAGE_LEAD_IN_DAYS).map(toPoint),
		firstKnownDate: firstKnown?.date ?? null,
		firstFigureDate: metric === 'sends' ? null : firstJoinsFigureDate(record, whole, today),
	};
}

/**
 * null once some day before today has its joins. Otherwise: with a snapshot yesterday but none yet today, the
 * next snapshot (today) completes yesterday; in every other case the first whole day is today at the
 * earliest, completed by a snapshot tomorrow.
 */
function firstJoinsFigureDate(record: HistoryRecord | null, whole: DailyFigures[], today: string): string | null {
	if (whole.some((figures) => figures.date < today && figures.joins !== null)) return null;
	const sampled = (date: string) => record?.days[date]?.joinsBefore !== undefined;
	return sampled(addDays(today, -1)) && !sampled(today) ? today : addDays(today, 1);
}
