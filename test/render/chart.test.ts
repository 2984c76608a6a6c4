import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChartDataset } from 'chart.js';
import { buildChartConfig, CHART_THEMES, MOVING_AVERAGE_WINDOW, movingAverage } from '../../src/render/chart.js';
import type { BuiltChart } from '../../src/render/chart.js';
import type { DailySends } from '../../src/stats-api/snapshot.js';

const DAY_MS = 86_400_000;

/** `count` consecutive UTC days ending on `lastDate`, with sends from `sendsOf(index)`. */
function breakdown(count: number, lastDate = '2026-11-21', sendsOf = (index: number) => index): DailySends[] {
	const last = Date.parse(`${lastDate}T00:00:00Z`);
	return Array.from({ length: count }, (_, index) => ({
		date: new Date(last - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
		sends: sendsOf(index),
	}));
}

function datasets(built: BuiltChart): ChartDataset[] {
	return built.config.data.datasets as ChartDataset[];
}

const WEEK: DailySends[] = [
	{ date: '2026-11-15', sends: 10 },
	{ date: '2026-11-16', sends: 0 },
	{ date: '2026-11-17', sends: 5 },
	{ date: '2026-11-18', sends: 7 },
	{ date: '2026-11-19', sends: 3 },
	{ date: '2026-11-20', sends: 20 },
	{ date: '2026-11-21', sends: 4 },
];

test('chart labels are the days in en-US short form, oldest first', () => {
	const built = buildChartConfig(WEEK, { days: 7, locale: 'en-US' });
	assert.deepEqual(built.config.data.labels, ['Nov 15', 'Nov 16', 'Nov 17', 'Nov 18', 'Nov 19', 'Nov 20', 'Nov 21']);
	assert.equal(built.shownDays, 7);
	assert.equal(built.note, null);
});

test('chart labels follow the locale and fall back to en-US when it is unknown', () => {
	const de = buildChartConfig(WEEK, { days: 7, locale: 'de' }).config.data.labels;
	assert.deepEqual(de?.slice(0, 2), ['15. Nov.', '16. Nov.']);
	const unknown = buildChartConfig(WEEK, { days: 7, locale: 'not a locale!' }).config.data.labels;
	assert.deepEqual(unknown?.slice(0, 2), ['Nov 15', 'Nov 16']);
});

test('chart datasets hold the sends as bars and the moving average as a line', () => {
	const [bars, line] = datasets(buildChartConfig(WEEK, { days: 7 }));
	assert.equal(bars?.type, 'bar');
	assert.equal(bars?.label, 'Sends');
	assert.deepEqual(bars?.data, [10, 0, 5, 7, 3, 20, 4]);
	assert.equal(line?.type, 'line');
	assert.equal(line?.label, '7-day average');
	assert.deepEqual(line?.data, [10, 5, 5, 5.5, 5, 7.5, 7]);
});

test('moving average uses a trailing window, averaging only the days available at the start', () => {
	assert.equal(MOVING_AVERAGE_WINDOW, 7);
	assert.deepEqual(movingAverage([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 7), [1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7]);
	assert.deepEqual(movingAverage([1, 2, 4], 3), [1, 1.5, 2.33]);
	assert.deepEqual(movingAverage([5, 5, 5, 100, 0, 0], 2), [5, 5, 5, 52.5, 50, 0]);
	assert.deepEqual(movingAverage([], 7), []);
});

test('moving average stays exact over a long series (no drift of the running sum)', () => {
	const values = Array.from({ length: 10_000 }, (_, index) => (index * 7919) % 1000);
	const averaged = movingAverage(values, 7);
	const last7 = values.slice(-7).reduce((sum, value) => sum + value, 0) / 7;
	assert.equal(averaged.at(-1), Math.round(last7 * 100) / 100);
});

test('chart title states the range with its first and last day', () => {
	const title = (built: BuiltChart) => built.config.options?.plugins?.title?.text;
	assert.equal(title(buildChartConfig(WEEK, { days: 7 })), 'Sends per day, last 7 days (Nov 15 – Nov 21)');
	assert.equal(
		title(buildChartConfig(WEEK, { days: 7, locale: 'de' })),
		'Sends per day, last 7 days (15. Nov. – 21. Nov.)',
	);
	assert.equal(title(buildChartConfig(WEEK.slice(-1), { days: 7 })), 'Sends per day, last day (Nov 21 – Nov 21)');
	assert.equal(title(buildChartConfig([], { days: 7 })), 'Sends per day (no data yet)');
});

test('the y axis counts in whole numbers from zero', () => {
	const { config } = buildChartConfig(
		breakdown(30, '2026-11-21', () => 1),
		{ days: 30 },
	);
	const y = config.options?.scales?.y as { beginAtZero?: boolean; ticks?: { precision?: number } } | undefined;
	assert.equal(y?.beginAtZero, true);
	assert.equal(y?.ticks?.precision, 0);
});

test('each theme sets its own background, text, grid and series colours', () => {
	for (const theme of ['dark', 'light'] as const) {
		const colours = CHART_THEMES[theme];
		const built = buildChartConfig(WEEK, { days: 7, theme });
		const options = built.config.options;
		const [bars, line] = datasets(built);
		assert.equal(built.background, colours.background);
		assert.equal(options?.color, colours.text);
		assert.equal(options?.plugins?.title?.color, colours.text);
		assert.equal(options?.scales?.x?.ticks?.color, colours.text);
		assert.equal(options?.scales?.y?.ticks?.color, colours.text);
		assert.equal(options?.scales?.y?.grid?.color, colours.grid);
		assert.equal(bars?.backgroundColor, colours.bar);
		assert.equal((line as { borderColor?: string } | undefined)?.borderColor, colours.line);
	}
	assert.equal(buildChartConfig(WEEK, { days: 7 }).background, CHART_THEMES.dark.background, 'dark is the default');
	assert.notEqual(CHART_THEMES.dark.text, CHART_THEMES.light.text);
	assert.notEqual(CHART_THEMES.dark.background, CHART_THEMES.light.background);
});

test('a note says so when fewer days are available than asked', () => {
	const built = buildChartConfig(breakdown(12), { days: 30 });
	assert.equal(built.shownDays, 12);
	assert.equal(built.note, 'The stats service gives the last 12 days; the chart shows those.');
	assert.equal(built.config.data.labels?.length, 12);
	assert.equal(
		buildChartConfig(breakdown(1), { days: 7 }).note,
		'The stats service gives 1 day of figures; the chart shows it.',
	);
	assert.equal(buildChartConfig([], { days: 7 }).note, 'No daily data available yet.');
	assert.equal(buildChartConfig([], { days: 7 }).shownDays, 0);
});

test('only the last `days` entries are drawn from a longer breakdown', () => {
	const long = breakdown(500, '2026-11-21', (index) => index);
	const built = buildChartConfig(long, { days: 90 });
	const [bars, line] = datasets(built);
	assert.equal(built.shownDays, 90);
	assert.equal(built.note, null);
	assert.deepEqual(
		bars?.data,
		Array.from({ length: 90 }, (_, index) => 410 + index),
	);
	assert.equal(built.config.data.labels?.[0], 'Aug 24');
	assert.equal(built.config.data.labels?.at(-1), 'Nov 21');
	// The average starts afresh at the first shown day rather than reaching into hidden days.
	assert.equal(line?.data[0], 410);
	assert.equal(line?.data.at(-1), 496);
});

test('the chart config is pure JSON, with no functions to lose on the way to QuickChart', () => {
	for (const theme of ['dark', 'light'] as const) {
		const { config } = buildChartConfig(breakdown(90), { days: 90, theme, locale: 'de' });
		assert.deepEqual(JSON.parse(JSON.stringify(config)), config);
	}
});

test('building the chart leaves the input breakdown untouched', () => {
	const input = breakdown(40);
	const copy = structuredClone(input);
	buildChartConfig(input, { days: 30 });
	assert.deepEqual(input, copy);
});
