import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { buildChartConfig, CHART_THEMES, englishChartLabels } from '../../src/render/chart.js';
import type { ChartInput } from '../../src/render/chart.js';
import { createChartRenderer } from '../../src/render/create-chart-renderer.js';
import { CHART_SIZE, renderChartSafely } from '../../src/render/draw-chart.js';
import { createLocalRenderer } from '../../src/render/local-renderer.js';
import { isPng, readPngSize } from '../../src/render/png.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DAY_MS = 86_400_000;
const silent = { warn: () => {} };

function chartInput(count: number, overrides: Partial<ChartInput> = {}): ChartInput {
	const last = Date.UTC(2026, 10, 23);
	const points = Array.from({ length: count }, (_, index) => ({
		date: new Date(last - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
		value: 20 + ((index * 37) % 100),
	}));
	return {
		metric: 'sends',
		points,
		averageSeed: [30, 40, 50, 60, 70, 80],
		locale: 'en-US',
		labels: englishChartLabels({
			metric: 'sends',
			accountName: 'Acme Ads',
			from: points[0]?.date ?? '2026-11-23',
			to: points.at(-1)?.date ?? '2026-11-23',
		}),
		...overrides,
	};
}

const JAPANESE_LABELS = {
	title: '広告アカウントの送信数',
	subtitle: '1日あたりの送信数（UTC）',
	yAxis: '送信数',
	series: '送信数',
	average: '7日間平均',
	partialToday: '今日（途中）',
};

/** The bot's renderer: a worker pool behind the memo. One pool for the file, closed at the end. */
const renderer = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:1', threads: 1 });
const inThread = createLocalRenderer();
after(() => renderer.close());

async function pixels(png: Buffer) {
	const image = await loadImage(png);
	const canvas = createCanvas(image.width, image.height);
	const context = canvas.getContext('2d');
	context.drawImage(image, 0, 0);
	const { data } = context.getImageData(0, 0, image.width, image.height);
	return {
		at(x: number, y: number): [number, number, number, number] {
			const offset = (y * image.width + x) * 4;
			return [data[offset]!, data[offset + 1]!, data[offset + 2]!, data[offset + 3]!];
		},
		/** Dark pixels in a box: text on the light theme. */
		ink(box: { x: number; y: number; width: number; height: number }): number {
			let dark = 0;
			for (let y = box.y; y < box.y + box.height; y++) {
				for (let x = box.x; x < box.x + box.width; x++) {
					const [r, g, b] = this.at(x, y);
					if (r + g + b < 300) dark++;
				}
			}
			return dark;
		},
	};
}

function hexToRgb(hex: string): [number, number, number] {
	const value = Number.parseInt(hex.slice(1), 16);
	return [value >> 16, (value >> 8) & 0xff, value & 0xff];
}

const TITLE_STRIP = { x: 100, y: 0, width: 600, height: 40 };

for (const days of [7, 90, 365]) {
	test(`the pooled renderer draws a real ${days}-day PNG of 800x400`, async () => {
		const chart = await renderChartSafely(renderer, chartInput(days), { log: silent });
		assert.ok(chart.png, 'a PNG was rendered');
		assert.deepEqual(chart.png.subarray(0, 8), PNG_SIGNATURE);
		assert.ok(isPng(chart.png));
		assert.deepEqual(readPngSize(chart.png), { width: 800, height: 400 });
		assert.ok(chart.png.length > 5 * 1024, `only ${chart.png.length} bytes: the chart is probably blank`);
		assert.equal(chart.problem, null);
	});
}

test('the pooled renderer paints the theme background, so the PNG is not transparent', async () => {
	for (const theme of ['dark', 'light'] as const) {
		const chart = await renderChartSafely(renderer, chartInput(30), { log: silent, theme });
		assert.ok(chart.png);
		const image = await pixels(chart.png);
		const [r, g, b] = hexToRgb(CHART_THEMES[theme].background);
		assert.deepEqual(image.at(0, 0), [r, g, b, 255], `${theme} corner`);
		assert.deepEqual(image.at(799, 399), [r, g, b, 255], `${theme} opposite corner`);
	}
});

test('five identical renders in flight through the pool are one render: all get the same buffer', async () => {
	const input = chartInput(45, { averageSeed: [1, 2, 3, 4, 5, 6] });
	const charts = await Promise.all(
		Array.from({ length: 5 }, () => renderChartSafely(renderer, input, { log: silent })),
	);
	assert.ok(charts[0]?.png);
	for (const chart of charts) assert.equal(chart.png, charts[0]?.png, 'the very same Buffer, drawn once');
});

test('the title is drawn with the bundled Latin font', async () => {
	const built = buildChartConfig(chartInput(30), { theme: 'light' });
	const png = await inThread.render(built.config, CHART_SIZE, { background: built.background });
	assert.ok(png);
	// With no usable font the title strip stays plain background.
	const dark = (await pixels(png)).ink(TITLE_STRIP);
	assert.ok(dark > 200, `only ${dark} dark pixels where the title should be`);
});

test('Japanese labels are drawn with Noto Sans JP, not as empty boxes', async () => {
	const built = buildChartConfig(chartInput(30, { locale: 'ja', labels: JAPANESE_LABELS }), { theme: 'light' });
	const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });
	assert.ok(png);
	// The same title limited to DejaVu, which has no Japanese: @napi-rs/canvas then draws a hollow box per glyph.
	const latinOnly = structuredClone(built.config);
	const titleFont = latinOnly.options?.plugins?.title?.font as { family?: string };
	titleFont.family = 'DejaVu Sans';
	const boxes = await inThread.render(latinOnly, CHART_SIZE, { background: built.background });
	assert.ok(boxes);
	const glyphInk = (await pixels(png)).ink(TITLE_STRIP);
	const boxInk = (await pixels(boxes)).ink(TITLE_STRIP);
	assert.ok(glyphInk > 2 * boxInk, `Japanese title ${glyphInk} dark pixels, boxes ${boxInk}: no glyphs drawn`);
});

test('the pool refuses renders beyond its queue with "chart queue full", and draws the rest', async () => {
	const small = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:1', threads: 1, queueLimit: 1 });
	try {
		const results = await Promise.allSettled(
			Array.from({ length: 6 }, (_, variant) => {
				const built = buildChartConfig(chartInput(30, { averageSeed: [variant] }));
				return small.render(built.config, CHART_SIZE, { background: built.background });
			}),
		);
		const refused = results.filter((result) => result.status === 'rejected');
		const drawn = results.filter((result) => result.status === 'fulfilled' && result.value && isPng(result.value));
		assert.ok(refused.length >= 1, 'the queue overflowed');
		assert.ok(drawn.length >= 1, 'what fitted was drawn');
		for (const result of refused) assert.match(String(result.reason), /chart queue full/u);
		assert.equal(refused.length + drawn.length, 6);
	} finally {
		await small.close();
	}
});

test('a closed renderer refuses to render; renderChartSafely logs that once and answers without a chart', async () => {
	const closed = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:1', threads: 1 });
	await closed.render(buildChartConfig(chartInput(7)).config, CHART_SIZE);
	await closed.close();
	await closed.close();
	const lines: { fields: object; message: string }[] = [];
	const chart = await renderChartSafely(closed, chartInput(8), {
		log: { warn: (fields, message) => lines.push({ fields, message }) },
	});
	assert.deepEqual(chart, { png: null, problem: 'failed' });
	assert.deepEqual(lines, [
		{ fields: { renderer: 'local', reason: 'chart renderer closed' }, message: 'chart render failed' },
	]);
});

test('the renderer leaves the caller config untouched', async () => {
	const built = buildChartConfig(chartInput(7));
	const before = JSON.stringify(built.config);
	await inThread.render(built.config, CHART_SIZE, { background: built.background });
	await renderer.render(built.config, CHART_SIZE, { background: built.background });
	assert.equal(JSON.stringify(built.config), before);
});

test('no points: no PNG and the reason, without rendering', async () => {
	const chart = await renderChartSafely(renderer, chartInput(0), { log: silent });
	assert.deepEqual(chart, { png: null, problem: 'noData' });
});

test('the none renderer gives no PNG and no problem', async () => {
	const none = createChartRenderer('none', { quickchartUrl: 'http://127.0.0.1:1' });
	assert.equal(none.name, 'none');
	assert.equal(await none.render(buildChartConfig(chartInput(7)).config, CHART_SIZE), null);
	assert.deepEqual(await renderChartSafely(none, chartInput(30), { log: silent }), {
		png: null,
		problem: null,
	});
	await none.close();
});

test('alpha is kept behind a translucent background; an opaque one gives an RGB PNG', async () => {
	const built = buildChartConfig(chartInput(7));
	const translucent = await inThread.render(built.config, CHART_SIZE, { background: 'rgba(0, 0, 0, 0.5)' });
	assert.ok(translucent);
	assert.equal(translucent[25], 6, 'colour type RGBA');
	const alpha = (await pixels(translucent)).at(0, 0)[3];
	assert.ok(alpha > 120 && alpha < 135, `corner alpha ${alpha}: half transparent, as asked`);
	const opaque = await inThread.render(built.config, CHART_SIZE, { background: built.background });
	assert.equal(opaque?.[25], 2, 'colour type RGB');
});

test('charts of all-zero, of 20-digit and of all-unknown days are drawn', async () => {
	for (const value of [0, Number('99999999999999999999'), null]) {
		const input = chartInput(30);
		input.points = input.points.map((point, index) => ({ ...point, value: index % 2 === 0 ? value : 0 }));
		const chart = await renderChartSafely(renderer, input, { log: silent });
		assert.ok(chart.png, `no PNG for ${value}`);
		assert.deepEqual(readPngSize(chart.png), { width: 800, height: 400 });
	}
});
