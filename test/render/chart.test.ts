import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChartDataset } from 'chart.js';
import {
	buildChartConfig,
	CHART_FONT_SIZES,
	CHART_THEMES,
	englishChartLabels,
	formatUtcRange,
	MOVING_AVERAGE_WINDOW,
	trailingAverage,
} from '../../src/render/chart.js';
import { CHART_RENDERER_NAMES } from '../../src/config.js';
import { renderChartSafely } from '../../src/render/draw-chart.js';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import type { BuiltChart, ChartInput } from '../../src/render/chart.js';
import type { StatsMetric } from '../../src/stats-options.js';

const DAY_MS = 86_400_000;

/** `count` consecutive UTC days ending on `lastDate` (today), valued by `valueOf(index)`. */
function points(count: number, valueOf: (index: number) => number | null = (index) => index, lastDate = '2026-11-23') {
	const last = Date.parse(`${lastDate}T00:00:00Z`);
	return Array.from({ length: count }, (_, index) => ({
		date: new Date(last - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
		value: valueOf(index),
	}));
}

function input(overrides: Partial<ChartInput> & { points: ChartInput['points'] }): ChartInput {
	const metric: StatsMetric = overrides.metric ?? 'sends';
	return {
		metric,
		averageSeed: [],
		locale: 'en-US',
		labels: englishChartLabels({
			metric,
			accountName: 'Acme Ads',
			from: overrides.points[0]?.date ?? '2026-11-23',
			to: overrides.points.at(-1)?.date ?? '2026-11-23',
		}),
		...overrides,
	};
}

function datasets(built: BuiltChart): ChartDataset[] {
	return built.config.data.datasets as ChartDataset[];
}

const WEEK = points(7, (index) => [10, 0, 5, 7, 3, 20, 4][index] ?? null);

test('renderer names are one list, in the order CHART_RENDERER documents them', () => {
	assert.deepEqual(CHART_RENDERER_NAMES, ['quickchart', 'local', 'none']);
});

test('one label per day, oldest first, in the locale; unknown locales fall back to en-US', () => {
	const built = buildChartConfig(input({ points: WEEK }));
	assert.deepEqual(built.config.data.labels, ['Nov 17', 'Nov 18', 'Nov 19', 'Nov 20', 'Nov 21', 'Nov 22', 'Nov 23']);
	const de = buildChartConfig(input({ points: WEEK, locale: 'de' })).config;
	assert.deepEqual(de.data.labels?.slice(0, 2), ['17. Nov.', '18. Nov.']);
	assert.equal(de.options?.locale, 'de', 'tick numbers follow the locale too');
	const unknown = buildChartConfig(input({ points: WEEK, locale: 'not a locale!' })).config;
	assert.deepEqual(unknown.data.labels?.slice(0, 2), ['Nov 17', 'Nov 18']);
});

test('365 days keep 365 labels; the ticks are thinned by the axis, not by dropping labels', () => {
	const built = buildChartConfig(input({ points: points(365) }));
	assert.equal(built.config.data.labels?.length, 365);
	for (const dataset of datasets(built)) assert.equal(dataset.data.length, 365);
	const ticks = built.config.options?.scales?.x?.ticks as {
		autoSkip?: boolean;
		maxTicksLimit?: number;
		maxRotation?: number;
	};
	assert.equal(ticks.autoSkip, true);
	assert.ok((ticks.maxTicksLimit ?? 99) <= 10);
	assert.equal(ticks.maxRotation, 0);
});

test("today's bar is its own, lighter, outlined dataset named partial in the legend", () => {
	const [bars, today, line] = datasets(buildChartConfig(input({ points: WEEK })));
	assert.deepEqual(bars?.data, [10, 0, 5, 7, 3, 20, null]);
	assert.deepEqual(today?.data, [null, null, null, null, null, null, 4]);
	assert.equal(today?.label, 'Today so far (partial)');
	assert.equal(today?.type, 'bar');
	assert.notEqual(today?.backgroundColor, bars?.backgroundColor);
	assert.ok(((today as { borderWidth?: number }).borderWidth ?? 0) > 0, 'outlined, not colour alone');
	// Both bar datasets share one slot per day instead of sitting side by side.
	assert.equal((bars as { grouped?: boolean }).grouped, false);
	assert.equal((today as { grouped?: boolean }).grouped, false);
	assert.equal(line?.type, 'line');
	assert.equal(line?.label, '7-day average');
});

test('unknown days are gaps in bars and line, never 0', () => {
	const withGap = points(10, (index) => (index === 4 ? null : 10));
	const [bars, , line] = datasets(buildChartConfig(input({ points: withGap, averageSeed: [10, 10, 10, 10, 10, 10] })));
	assert.equal(bars?.data[4], null);
	assert.equal((line as { spanGaps?: boolean }).spanGaps, false);
	// Days 4..9 have the unknown day 4 in their week (9 is today and never averaged); 0..3 have full weeks.
	assert.deepEqual(line?.data, [10, 10, 10, 10, null, null, null, null, null, null]);
	const nonFinite = buildChartConfig(input({ points: points(3, () => Number.NaN) }));
	assert.deepEqual(datasets(nonFinite)[0]?.data, [null, null, null]);
});

test('the average uses the seed days, so the first points average a full week', () => {
	const seed = [1, 2, 3, 4, 5, 6];
	const [, , line] = datasets(buildChartConfig(input({ points: points(4, (index) => 7 + index), averageSeed: seed })));
	// 1..7 → 4, 2..8 → 5, 3..9 → 6; today (10) is partial and not averaged.
	assert.deepEqual(line?.data, [4, 5, 6, null]);
	// Without a seed the line starts on the seventh day instead of averaging fewer days than it claims.
	const [, , unseeded] = datasets(buildChartConfig(input({ points: points(9, () => 7) })));
	assert.deepEqual(unseeded?.data, [null, null, null, null, null, null, 7, 7, null]);
});

test('trailingAverage: exact windows, seeds longer than needed, unknown seed days', () => {
	assert.equal(MOVING_AVERAGE_WINDOW, 7);
	assert.deepEqual(trailingAverage([], [1, 2, 3, 4, 5, 6, 7, 8], 7), [null, null, null, null, null, null, 4, 5]);
	assert.deepEqual(trailingAverage([9, 9, 0, 0, 0, 0, 0, 0], [7], 7), [1], 'only the last 6 seed days count');
	assert.deepEqual(trailingAverage([null, 1, 1, 1, 1, 1], [1, 1], 7), [null, 1]);
	assert.deepEqual(trailingAverage([1, 2], [4], 3), [2.33]);
	assert.deepEqual(trailingAverage([], [], 7), []);
	const long = Array.from({ length: 10_000 }, (_, index) => (index * 7919) % 1000);
	const last7 = long.slice(-7).reduce((sum, value) => sum + value, 0) / 7;
	assert.equal(trailingAverage([], long, 7).at(-1), Math.round(last7 * 100) / 100);
});

test('the y range fits the line: no fixed max, beginAtZero with grace, and a curve that cannot overshoot', () => {
	// A week of big days before a quiet shown range: the average sits far above every bar.
	const built = buildChartConfig(
		input({ points: points(8, () => 1), averageSeed: [1000, 1000, 1000, 1000, 1000, 1000] }),
	);
	const y = built.config.options?.scales?.y as Record<string, unknown>;
	assert.equal(y.max, undefined);
	assert.equal(y.suggestedMax, undefined);
	assert.equal(y.beginAtZero, true);
	assert.equal(y.grace, '5%');
	const [, , line] = datasets(built);
	assert.equal((line as { cubicInterpolationMode?: string }).cubicInterpolationMode, 'monotone');
	assert.ok(Math.max(...(line?.data as number[]).filter(Number.isFinite)) > 800, 'the line is in the data');
});

test('counts tick in whole numbers; conversion in decimals with its unit on the axis', () => {
	const precision = (built: BuiltChart) => (built.config.options?.scales?.y?.ticks as { precision?: number }).precision;
	assert.equal(precision(buildChartConfig(input({ points: WEEK }))), 0);
	assert.equal(precision(buildChartConfig(input({ points: WEEK, metric: 'joins' }))), 0);
	const conversion = buildChartConfig(input({ points: points(7, () => 2.5), metric: 'conversion' }));
	assert.equal(precision(conversion), 2);
	assert.equal(
		(conversion.config.options?.scales?.y as { title?: { text?: string } }).title?.text,
		'Joins per 100 sends',
	);
});

// ICU puts thin spaces (U+2009) around the dash of a date range.
test('title, subtitle and y-axis title are shown, with fonts legible at 520 px', () => {
	const options = buildChartConfig(input({ points: WEEK })).config.options;
	assert.equal(options?.plugins?.title?.display, true);
	assert.equal(options?.plugins?.title?.text, 'Acme Ads · Nov 17\u2009–\u200923, 2026 (UTC)');
	assert.equal(options?.plugins?.subtitle?.display, true);
	assert.equal(options?.plugins?.subtitle?.text, 'Sends per day (UTC days)');
	const y = options?.scales?.y as { title?: { display?: boolean; text?: string } };
	assert.equal(y.title?.display, true);
	assert.equal(y.title?.text, 'Sends');
	// 800 px shown at ~520 px: 15 px becomes ~10 px, the smallest that still reads.
	for (const size of Object.values(CHART_FONT_SIZES)) assert.ok(size >= 15, `font size ${size}`);
	assert.equal((options?.scales?.x?.ticks as { font?: { size?: number } }).font?.size, CHART_FONT_SIZES.ticks);
});

test('englishChartLabels names the account, the server for scope:server, and the UTC range with the year', () => {
	const server = englishChartLabels({
		metric: 'joins',
		accountName: 'Acme Ads',
		serverName: 'My Guild',
		from: '2025-11-24',
		to: '2026-11-23',
	});
	assert.equal(server.title, 'Acme Ads (server My Guild) · Nov 24, 2025\u2009–\u2009Nov 23, 2026 (UTC)');
	assert.equal(server.subtitle, 'Joins per day (UTC days)');
	assert.equal(server.yAxis, 'Joins');
	assert.equal(server.average, '7-day average');
	assert.equal(server.partialToday, 'Today so far (partial)');
	const sameName = englishChartLabels({
		metric: 'sends',
		accountName: 'Pixel Community',
		serverName: ' pixel community',
		from: '2026-11-23',
		to: '2026-11-23',
	});
	assert.equal(sameName.title, 'Pixel Community (server account) · Nov 23, 2026 (UTC)', 'the name said once');
	const oneDay = englishChartLabels({ metric: 'sends', accountName: '  ', from: '2026-11-23', to: '2026-11-23' });
	assert.equal(oneDay.title, 'Unnamed account · Nov 23, 2026 (UTC)');
	const long = englishChartLabels({
		metric: 'sends',
		accountName: 'x'.repeat(200),
		from: '2026-11-01',
		to: '2026-11-23',
	});
	assert.ok(long.title.startsWith(`${'x'.repeat(39)}… · `), long.title);
	assert.equal(formatUtcRange('2026-11-01', '2026-11-23', 'de'), '1.–23. Nov. 2026 (UTC)');
	assert.equal(formatUtcRange('bad', '2026-11-23', 'en-US'), 'bad – 2026-11-23 (UTC)');
});

test('each theme sets its own background, text, grid and series colours', () => {
	for (const theme of ['dark', 'light'] as const) {
		const colours = CHART_THEMES[theme];
		const built = buildChartConfig(input({ points: WEEK }), { theme });
		const options = built.config.options;
		const [bars, today, line] = datasets(built);
		assert.equal(built.background, colours.background);
		assert.equal(options?.color, colours.text);
		assert.equal(options?.plugins?.title?.color, colours.text);
		assert.equal(options?.scales?.x?.ticks?.color, colours.text);
		assert.equal(options?.scales?.y?.ticks?.color, colours.text);
		assert.equal(options?.scales?.y?.grid?.color, colours.grid);
		assert.equal(bars?.backgroundColor, colours.bar);
		assert.equal(today?.backgroundColor, colours.partialBar);
		assert.equal((line as { borderColor?: string } | undefined)?.borderColor, colours.line);
	}
	assert.equal(
		buildChartConfig(input({ points: WEEK })).background,
		CHART_THEMES.dark.background,
		'dark is the default',
	);
});

test('the chart config is pure JSON, with no functions to lose on the way to QuickChart', () => {
	for (const theme of ['dark', 'light'] as const) {
		for (const metric of ['sends', 'joins', 'conversion'] as const) {
			const { config } = buildChartConfig(
				input({ points: points(365, (i) => (i % 9 ? i : null)), metric, locale: 'ja' }),
				{ theme },
			);
			assert.deepEqual(JSON.parse(JSON.stringify(config)), config);
		}
	}
});

test('building the chart leaves the input untouched', () => {
	const given = input({ points: points(40), averageSeed: [1, 2, 3] });
	const copy = structuredClone(given);
	buildChartConfig(given);
	assert.deepEqual(given, copy);
});

test('the same chart input drawn again hands the renderer the same config; another theme gets its own', async () => {
	const seen: object[] = [];
	const renderer: ChartRenderer = {
		name: 'local',
		render: async (config) => {
			seen.push(config);
			return Buffer.from('png');
		},
		close: async () => {},
	};
	const log = { warn: () => assert.fail('nothing fails here') };
	const week = input({ points: points(7) });
	await renderChartSafely(renderer, week, { log });
	await renderChartSafely(renderer, week, { log });
	await renderChartSafely(renderer, week, { log, theme: 'light' });
	await renderChartSafely(renderer, input({ points: points(7) }), { log });
	assert.equal(seen.length, 4);
	assert.equal(seen[1], seen[0]);
	assert.notEqual(seen[2], seen[0]);
	assert.notEqual(seen[3], seen[0], 'an input built apart is built apart');
	assert.deepEqual(seen[3], seen[0]);
});
