import type { ChartConfiguration } from 'chart.js';
import type { DailySends } from '../stats-api/snapshot.js';
import { dateTimeFormat, resolveLocale } from './format.js';

/** The chart ranges `/stats days:` offers. */
export const CHART_DAYS = [7, 14, 30, 90] as const;
export type ChartDays = (typeof CHART_DAYS)[number];
export type ChartTheme = 'dark' | 'light';

/** Days averaged by the trend line (trailing window, including the day itself). */
export const MOVING_AVERAGE_WINDOW = 7;

/** Chart colours per theme. The image carries its own background, so a chart must read on that background; the
 * dark palette (Discord's dark embed grey) is the default because most members use the dark theme, and a dark card
 * with light text still reads as a framed picture in the light theme, whereas a transparent one would not. */
export const CHART_THEMES = {
	dark: {
		background: '#2b2d31',
		text: '#dbdee1',
		grid: 'rgba(255, 255, 255, 0.12)',
		bar: '#5865f2',
		line: '#fee75c',
	},
	light: {
		background: '#ffffff',
		text: '#313338',
		grid: 'rgba(0, 0, 0, 0.12)',
		bar: '#5865f2',
		line: '#e67e22',
	},
} as const;

export interface ChartOptions {
	days: ChartDays;
	theme?: ChartTheme;
	/** Locale for the date labels; unknown locales fall back to en-US. */
	locale?: string;
}

export interface BuiltChart {
	/** Pure JSON (no functions), so QuickChart and the local renderer draw the same chart. */
	config: ChartConfiguration;
	/** Days actually drawn: `days`, or fewer when the breakdown is shorter. */
	shownDays: number;
	/** Set when fewer days than asked are shown, for the embed to say so. */
	note: string | null;
	/** The colour the renderer must paint behind the chart. */
	background: string;
}

/** Builds the "sends per day" chart from the LAST `days` entries of a sorted, zero-filled breakdown. */
export function buildChartConfig(breakdown: DailySends[], options: ChartOptions): BuiltChart {
	const theme = CHART_THEMES[options.theme ?? 'dark'];
	const locale = resolveLocale(options.locale);
	const shown = breakdown.slice(-options.days);
	const sends = shown.map((day) => day.sends);
	const dayFormat = dateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
	const labels = shown.map((day) => formatDay(day.date, dayFormat));

	const config: ChartConfiguration<'bar' | 'line', number[], string> = {
		type: 'bar',
		data: {
			labels,
			datasets: [
				{
					type: 'bar',
					label: 'Sends',
					data: sends,
					backgroundColor: theme.bar,
					borderWidth: 0,
					order: 2,
				},
				{
					type: 'line',
					label: `${MOVING_AVERAGE_WINDOW}-day average`,
					data: movingAverage(sends, MOVING_AVERAGE_WINDOW),
					borderColor: theme.line,
					backgroundColor: theme.line,
					borderWidth: 3,
					pointRadius: 0,
					tension: 0.3,
					order: 1,
				},
			],
		},
		options: {
			responsive: false,
			animation: false,
			devicePixelRatio: 1,
			color: theme.text,
			font: { size: 14 },
			layout: { padding: 12 },
			plugins: {
				title: { display: true, text: chartTitle(labels), color: theme.text, font: { size: 18, weight: 'bold' } },
				legend: { position: 'bottom', reverse: true, labels: { color: theme.text } },
			},
			scales: {
				x: {
					ticks: { color: theme.text, autoSkip: true, maxRotation: 0, maxTicksLimit: 10 },
					grid: { display: false },
				},
				y: {
					beginAtZero: true,
					ticks: { color: theme.text, precision: 0 },
					grid: { color: theme.grid },
				},
			},
		},
	};

	return {
		config: config as ChartConfiguration,
		shownDays: shown.length,
		note: availabilityNote(shown.length, options.days),
		background: theme.background,
	};
}

/** Trailing moving average rounded to 2 decimals; the first days average over the days available so far. */
export function movingAverage(values: readonly number[], window: number): number[] {
	let sum = 0;
	return values.map((value, index) => {
		sum += value;
		if (index >= window) sum -= values[index - window] ?? 0;
		return Math.round((sum / Math.min(index + 1, window)) * 100) / 100;
	});
}

function chartTitle(labels: readonly string[]): string {
	const first = labels[0];
	const last = labels.at(-1);
	if (first === undefined || last === undefined) return 'Sends per day (no data yet)';
	const days = labels.length === 1 ? 'last day' : `last ${labels.length} days`;
	return `Sends per day, ${days} (${first} – ${last})`;
}

function availabilityNote(shown: number, asked: number): string | null {
	if (shown >= asked) return null;
	if (shown === 0) return 'No daily data available yet.';
	// The account may be older: the endpoint decides how many days its breakdown holds.
	return shown === 1
		? 'The stats service gives 1 day of figures; the chart shows it.'
		: `The stats service gives the last ${shown} days; the chart shows those.`;
}

/** "Nov 21" for en-US, "21. Nov." for de; the breakdown's dates are UTC calendar days. */
function formatDay(date: string, dayFormat: Intl.DateTimeFormat): string {
	const ms = Date.parse(`${date}T00:00:00Z`);
	return Number.isFinite(ms) ? dayFormat.format(ms) : date;
}
