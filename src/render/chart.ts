import type { ChartConfiguration } from 'chart.js';
import type { ChartPoint } from '../history/chart-series.js';
import { resolveLocale } from '../i18n/index.js';
import type { StatsMetric } from '../stats-options.js';

import { codePointLength, dateTimeFormat, truncate } from './format.js';

/** The values `CHART_RENDERER` accepts; the config reader and the renderers both read this list. */

/** The chart ranges `/stats days:` offers. */
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
		partialBar: 'rgba(88, 101, 242, 0.35)',
		line: '#fee75c',
		note: '#eb459e',
		noteLabel: '#1e1f22',
		noteText: '#ffffff',
	},
	light: {
		background: '#ffffff',
		text: '#313338',
		grid: 'rgba(0, 0, 0, 0.12)',
		bar: '#5865f2',
		partialBar: 'rgba(88, 101, 242, 0.3)',
		line: '#e67e22',
		note: '#c2185b',
		noteLabel: '#f2f3f5',
		noteText: '#313338',
	},
} as const;

/** A note on a day: a vertical line on the chart with its text (src/notes). */
export interface ChartNote {
	/** The UTC day, `YYYY-MM-DD`. */
	date: string;
	text: string;
}

/** Characters of a note's text the chart shows; the lists under a chart show all of it. */
export const CHART_NOTE_LENGTH = 24;
const NOTE_FONT_SIZE = 14;
/** Where a note's label sits on its line, in turn, so notes on days close together do not cover each other. */
const NOTE_LABEL_POSITIONS = ['start', 'center', 'end'] as const;

/**
 * Font sizes in px of the 800 px wide image. Discord shows it at about 520 px, so a 16 px tick reads as ~10 px
 * there; anything smaller turns to smudge.
 */
export const CHART_FONT_SIZES = { base: 16, title: 22, subtitle: 17, ticks: 16, legend: 16, axisTitle: 16 } as const;

export interface ChartLabels {
	title: string;
	subtitle: string;
	yAxis: string;
	series: string;
	average: string;
	partialToday: string;
}

/** What a chart shows, already translated: the builder only lays it out. */
export interface ChartInput {
	metric: StatsMetric;
	/** Oldest first; the last one is today, still running (unless `lastIsPartial` is false). */
	points: ChartPoint[];
	/** False for a chosen range ending before today: every day is complete, none drawn as partial. Default true. */
	lastIsPartial?: boolean;
	/** Up to 6 values of the days right before points[0], oldest first, so the first points average full weeks. */
	averageSeed: (number | null)[];
	/** The reader's language (a product Locale; any other tag reads as en-US): the day labels and tick numbers. */
	locale: string;
	labels: ChartLabels;
	/** The notes of the days shown (of the chart's own scope only), oldest first; drawn as vertical lines. */
	notes?: readonly ChartNote[];
}

export interface BuiltChart {
	/** Pure JSON (no functions), so QuickChart and the local renderer draw the same chart. */
	config: ChartConfiguration;
	/** The colour the renderer must paint behind the chart. */
	background: string;
}

/** Builds the bar chart with its 7-day average line; today's bar is a separate, lighter, legend-named dataset. */
export function buildChartConfig(input: ChartInput, options: { theme?: ChartTheme } = {}): BuiltChart {
	const theme = CHART_THEMES[options.theme ?? 'dark'];
	const locale = resolveLocale(input.locale);
	const dayFormat = dateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
	const values = input.points.map((point) => finiteOrNull(point.value));
	const todayIndex = input.lastIsPartial === false ? -1 : values.length - 1;
	const completeDays = values.map((value, index) => (index === todayIndex ? null : value));
	const today = values.map((value, index) => (index === todayIndex ? value : null));
	const isCount = input.metric !== 'conversion';

	const config: ChartConfiguration<'bar' | 'line', (number | null)[], string> = {
		type: 'bar',
		data: {
			// One label per day, so QuickChart and the local renderer place each bar on its own day.
			labels: input.points.map((point) => formatDay(point.date, dayFormat)),
			datasets: [
				{
					type: 'bar',
					label: input.labels.series,
					data: completeDays,
					backgroundColor: theme.bar,
					borderWidth: 0,
					grouped: false,
					order: 3,
				},
				{
					// A separate dataset, so the legend names the partial day: a lighter bar alone would read as a drop.
					type: 'bar',
					label: input.labels.partialToday,
					data: today,
					backgroundColor: theme.partialBar,
					borderColor: theme.bar,
					borderWidth: 2,
					grouped: false,
					order: 2,
				},
				{
					type: 'line',
					label: input.labels.average,
					data: trailingAverage(input.averageSeed, completeDays, MOVING_AVERAGE_WINDOW),
					borderColor: theme.line,
					backgroundColor: theme.line,
					borderWidth: 3,
					pointRadius: 0,
					spanGaps: false,
					// Monotone curves never overshoot their points, so the fitted y range holds the whole line.
					cubicInterpolationMode: 'monotone',
					order: 1,
				},
			],
		},
		options: {
			responsive: false,
			animation: false,
			devicePixelRatio: 1,
			locale,
			color: theme.text,
			font: { size: CHART_FONT_SIZES.base },
			layout: { padding: { top: 8, right: 16, bottom: 8, left: 12 } },
			plugins: {
				title: {
					display: true,
					text: input.labels.title,
					color: theme.text,
					font: { size: CHART_FONT_SIZES.title, weight: 'bold' },
					padding: { top: 4, bottom: 2 },
				},
				subtitle: {
					display: true,
					text: input.labels.subtitle,
					color: theme.text,
					font: { size: CHART_FONT_SIZES.subtitle },
					padding: { bottom: 8 },
				},
				legend: {
					position: 'bottom',
					reverse: true,
					labels: { color: theme.text, font: { size: CHART_FONT_SIZES.legend }, boxWidth: 28 },
				},
			},
			scales: {
				x: {
					// Thinning happens in the ticks, never in data.labels: 365 days keep 365 labels.
					ticks: {
						color: theme.text,
						font: { size: CHART_FONT_SIZES.ticks },
						autoSkip: true,
						autoSkipPadding: 16,
						maxRotation: 0,
						maxTicksLimit: 8,
					},
					grid: { display: false },
				},
				y: {
					beginAtZero: true,
					// Headroom above the highest bar or average point, so neither touches the title.
					grace: '5%',
					title: {
						display: true,
						text: input.labels.yAxis,
						color: theme.text,
						font: { size: CHART_FONT_SIZES.axisTitle },
					},
					ticks: {
						color: theme.text,
						font: { size: CHART_FONT_SIZES.ticks },
						precision: isCount ? 0 : 2,
						maxTicksLimit: 6,
					},
					grid: { color: theme.grid },
				},
			},
		},
	};

	// A range of past days has no day in progress: the legend must not name one.
	if (todayIndex < 0) config.data.datasets.splice(1, 1);
	const annotations = noteAnnotations(input, theme);
	// Only a chart with notes carries the plugin's options, so every other chart's config stays what it was.
	if (annotations !== null) (config.options!.plugins as Record<string, unknown>).annotation = { annotations };
	return { config: config as ChartConfiguration, background: theme.background };
}

/**
 * chartjs-plugin-annotation's options for the notes on the days shown: one vertical line per note at its day's bar
 * (the category index), with the text cut to CHART_NOTE_LENGTH. Plain JSON, which QuickChart accepts as it is.
 */
function noteAnnotations(input: ChartInput, theme: (typeof CHART_THEMES)[ChartTheme]): Record<string, object> | null {
	if (!input.notes || input.notes.length === 0) return null;
	const indexOf = new Map(input.points.map((point, index) => [point.date, index]));
	const annotations: Record<string, object> = {};
	let drawn = 0;
	for (const note of input.notes) {
		const index = indexOf.get(note.date);
		if (index === undefined) continue;
		annotations[`note${drawn}`] = {
			type: 'line',
			scaleID: 'x',
			value: index,
			borderColor: theme.note,
			borderWidth: 2,
			label: {
				display: true,
				content: truncate(note.text, CHART_NOTE_LENGTH),
				position: NOTE_LABEL_POSITIONS[drawn % NOTE_LABEL_POSITIONS.length],
				backgroundColor: theme.noteLabel,
				color: theme.noteText,
				font: { size: NOTE_FONT_SIZE },
				padding: 4,
			},
		};
		drawn += 1;
	}
	return drawn === 0 ? null : annotations;
}

/**
 * Trailing average over `window` days per point, counting the seed days before the first point. A point whose
 * window holds an unknown day gets no average (a gap), so the line never claims a week it did not see.
 */
export function trailingAverage(
	seed: readonly (number | null)[],
	values: readonly (number | null)[],
	window: number,
): (number | null)[] {
	const series = [...seed.slice(-(window - 1)), ...values];
	const offset = series.length - values.length;
	return values.map((_, index) => {
		const end = offset + index + 1;
		if (end < window) return null;
		let sum = 0;
		for (let day = end - window; day < end; day++) {
			const value = series[day];
			if (value === null || value === undefined || !Number.isFinite(value)) return null;
			sum += value;
		}
		return Math.round((sum / window) * 100) / 100;
	});
}

const ACCOUNT_NAME_MAX = 40;
const SERVER_NAME_MAX = 32;

const ENGLISH_METRIC_TEXTS = {
	sends: { subtitle: 'Sends per day (UTC days)', yAxis: 'Sends', series: 'Sends' },
	joins: { subtitle: 'Joins per day (UTC days)', yAxis: 'Joins', series: 'Joins' },
	conversion: {
		subtitle: 'Joins per 100 sends, per day (UTC days)',
		yAxis: 'Joins per 100 sends',
		series: 'Joins per 100 sends',
	},
} as const;

/**
 * Whether a server is named like its account (case and spacing aside): the chart then names it once, as "Pixel
 * Community · server account" rather than "Pixel Community · server Pixel Community".
 */
export function isSameName(account: string, server: string): boolean {
	const normalized = (name: string) => name.replace(/\s+/gu, ' ').trim().toLocaleLowerCase('en-US');
	return normalized(account) === normalized(server);
}

/** The English chart texts: the fallback language and the reference the translations follow. */
export function englishChartLabels(options: {
	metric: StatsMetric;
	accountName: string;
	/** Set for scope:server, so a forwarded picture says whose key it is. */
	serverName?: string | null;
	/** First and last day shown, YYYY-MM-DD. */
	from: string;
	to: string;
}): ChartLabels {
	const account = truncate(options.accountName.trim() || 'Unnamed account', ACCOUNT_NAME_MAX);
	const server = options.serverName ? truncate(options.serverName.trim(), SERVER_NAME_MAX) : '';
	let owner = account;
	if (server && codePointLength(server) > 0) {
		owner = isSameName(options.accountName, options.serverName ?? '')
			? `${account} (server account)`
			: `${account} (server ${server})`;
	}
	return {
		title: `${owner} · ${formatUtcRange(options.from, options.to, 'en-US')}`,
		...ENGLISH_METRIC_TEXTS[options.metric],
		average: `${MOVING_AVERAGE_WINDOW}-day average`,
		partialToday: 'Today so far (partial)',
	};
}

/** "Nov 17 – 23, 2026 (UTC)": always with the year, since a forwarded chart outlives its message. */
export function formatUtcRange(from: string, to: string, locale: string): string {
	const format = dateTimeFormat(resolveLocale(locale), {
		year: 'numeric',
		month: 'short',
		day: 'numeric',
		timeZone: 'UTC',
	});
	const start = Date.parse(`${from}T00:00:00Z`);
	const end = Date.parse(`${to}T00:00:00Z`);
	if (!Number.isFinite(start) || !Number.isFinite(end)) return `${from} – ${to} (UTC)`;
	return `${start === end ? format.format(start) : format.formatRange(start, end)} (UTC)`;
}

function finiteOrNull(value: number | null): number | null {
	return value !== null && Number.isFinite(value) ? value : null;
}

/** Day labels already written, per formatter (one per locale): each chart of a day labels the same days. */
const writtenDays = new WeakMap<Intl.DateTimeFormat, Map<string, string>>();
const MAX_WRITTEN_DAYS = 2000;

/** "Nov 21" for en-US, "21. Nov." for de; the points are UTC calendar days. */
function formatDay(date: string, dayFormat: Intl.DateTimeFormat): string {
	let written = writtenDays.get(dayFormat);
	if (!written) {
		written = new Map();
		writtenDays.set(dayFormat, written);
	}
	let label = written.get(date);
	if (label === undefined) {
		const ms = Date.parse(`${date}T00:00:00Z`);
		label = Number.isFinite(ms) ? dayFormat.format(ms) : date;
		if (written.size >= MAX_WRITTEN_DAYS) written.clear();
		written.set(date, label);
	}
	return label;
}
