// The arithmetic of a goal (docs/goals.md): progress, the forecast at the period's end and its band. Pure: the
// history's daily figures and the clock in, plain numbers out, never rounded (only a reply rounds).
import { addDays, daysBetween, startOfDate, utcDateOf } from '../history/utc-days.js';
import type { GoalMetric, GoalPeriod } from './goal-record.js';

/** Complete known days before today that a forecast stands on. */
export const FORECAST_BASE_DAYS = 28;
/** One-sided 90 % quantile of the normal distribution: the band is a ±1.28 σ interval (about 80 % two-sided). */
export const BAND_Z = 1.28;

/** One UTC day's figure of the metric; null when the history does not know it. */
export interface DayFigure {
	date: string;
	value: number | null;
}

export interface GoalForecastInput {
	/** Daily figures of complete days (before today), any order; days absent here are unknown. */
	days: readonly DayFigure[];
	/** Today's figure so far; null when unknown (counts as nothing yet). */
	todaySoFar: number | null;
	metric: GoalMetric;
	period: GoalPeriod;
	/** The bot's clock, epoch ms: decides today and the period. */
	now: number;
}

export interface GoalForecast {
	/** Expected total at the period's end. */
	expected: number;
	low: number;
	high: number;
}

export interface GoalProgress {
	metric: GoalMetric;
	period: GoalPeriod;
	/** The period's first and last UTC day, `YYYY-MM-DD`. */
	start: string;
	end: string;
	/** The period's figures so far, today's included. */
	progress: number;
	/** Null without 28 complete known days before today. */
	forecast: GoalForecast | null;
	/** When `forecast` is null: the first UTC day a forecast can be made, if every day from now on is known. */
	forecastFrom: string | null;
	/** The period's days up to today with their figures (unknown ones as 0, today's so far), for a chart. */
	elapsed: DayFigure[];
	/** Expected figure of each remaining day (today's: what is still expected today), from today to `end`. */
	remaining: { date: string; expected: number }[];
}

/** The calendar month, or the ISO week (Monday to Sunday), that holds the UTC day `today`. */
export function periodBounds(period: GoalPeriod, today: string): { start: string; end: string } {
	if (period === 'month') {
		const start = `${today.slice(0, 8)}01`;
		const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
		// Day 0 of the next month is this month's last day (February's 28 or 29 included).
		const end = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
		return { start, end };
	}
	// getUTCDay() counts from Sunday = 0; an ISO week starts on Monday.
	const sinceMonday = (new Date(startOfDate(today)).getUTCDay() + 6) % 7;
	const start = addDays(today, -sinceMonday);
	return { start, end: addDays(start, 6) };
}

const weekdayOf = (date: string) => new Date(startOfDate(date)).getUTCDay();

/**
 * progress = the period's known figures up to now, today so far included;
 * forecast = progress + Σ m(weekday) over the period's days after today + max(0, m(today's weekday) − today so far),
 * m(w) being the mean on weekday w over the 28 complete days ending yesterday;
 * band = forecast ± 1.28 · s · √n, s the standard deviation of figure − m(weekday) over those 28 days and n the
 * days left including today; the low end never below progress.
 */
export function computeGoalProgress(input: GoalForecastInput): GoalProgress {
	const today = utcDateOf(input.now);
	const { start, end } = periodBounds(input.period, today);
	const byDate = new Map<string, number>();
	for (const day of input.days) if (day.value !== null && day.date < today) byDate.set(day.date, day.value);
	const todaySoFar = input.todaySoFar ?? 0;

	const elapsed: DayFigure[] = [];
	for (let date = start; date < today; date = addDays(date, 1)) elapsed.push({ date, value: byDate.get(date) ?? 0 });
	elapsed.push({ date: today, value: todaySoFar });
	const progress = elapsed.reduce((sum, day) => sum + (day.value ?? 0), 0);

	const base = Array.from({ length: FORECAST_BASE_DAYS }, (_, index) => addDays(today, index - FORECAST_BASE_DAYS));
	const lastUnknown = base.findLast((date) => !byDate.has(date));
	const common = { metric: input.metric, period: input.period, start, end, progress, elapsed };
	if (lastUnknown !== undefined) {
		// The 28 days ending the day before D must all be known: D is at least 29 days after the latest unknown one.
		return { ...common, forecast: null, forecastFrom: addDays(lastUnknown, FORECAST_BASE_DAYS + 1), remaining: [] };
	}

	const sums = new Array<number>(7).fill(0);
	const counts = new Array<number>(7).fill(0);
	for (const date of base) {
		const weekday = weekdayOf(date);
		sums[weekday] = (sums[weekday] ?? 0) + (byDate.get(date) ?? 0);
		counts[weekday] = (counts[weekday] ?? 0) + 1;
	}
	// 28 consecutive days hold each weekday exactly 4 times.
	const mean = (weekday: number) => (sums[weekday] ?? 0) / (counts[weekday] ?? 1);
	const residuals = base.map((date) => (byDate.get(date) ?? 0) - mean(weekdayOf(date)));
	const residualMean = residuals.reduce((sum, r) => sum + r, 0) / residuals.length;
	// A sample standard deviation (n − 1): the 28 days are a sample of how the account's days scatter.
	const s = Math.sqrt(residuals.reduce((sum, r) => sum + (r - residualMean) ** 2, 0) / (residuals.length - 1));

	const remaining = [{ date: today, expected: Math.max(0, mean(weekdayOf(today)) - todaySoFar) }];
	for (let date = addDays(today, 1); date <= end; date = addDays(date, 1)) {
		remaining.push({ date, expected: mean(weekdayOf(date)) });
	}
	const expected = progress + remaining.reduce((sum, day) => sum + day.expected, 0);
	const n = daysBetween(today, end) + 1;
	const half = BAND_Z * s * Math.sqrt(n);
	return {
		...common,
		forecast: { expected, low: Math.max(progress, expected - half), high: expected + half },
		forecastFrom: null,
		remaining,
	};
}
