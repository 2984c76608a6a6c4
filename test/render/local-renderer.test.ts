import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { CHART_THEMES } from '../../src/render/chart.js';
import { CHART_SIZE, createChartRenderer, renderChartSafely } from '../../src/render/chart-output.js';
import { createLocalRenderer } from '../../src/render/local-renderer.js';
import { buildChartConfig } from '../../src/render/chart.js';
import { isPng, readPngSize } from '../../src/render/png.js';
import type { DailySends } from '../../src/stats-api/snapshot.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DAY_MS = 86_400_000;

function breakdown(count: number): DailySends[] {
	const last = Date.UTC(2026, 10, 21);
	return Array.from({ length: count }, (_, index) => ({
		date: new Date(last - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
		sends: 20 + ((index * 37) % 100),
	}));
}

const renderer = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:1' });

async function pixels(png: Buffer): Promise<{ at(x: number, y: number): [number, number, number, number] }> {
	const image = await loadImage(png);
	const canvas = createCanvas(image.width, image.height);
	const context = canvas.getContext('2d');
	context.drawImage(image, 0, 0);
	const { data } = context.getImageData(0, 0, image.width, image.height);
	return {
		at: (x, y) => {
			const offset = (y * image.width + x) * 4;
			return [data[offset]!, data[offset + 1]!, data[offset + 2]!, data[offset + 3]!];
		},
	};
}

function hexToRgb(hex: string): [number, number, number] {
	const value = Number.parseInt(hex.slice(1), 16);
	return [value >> 16, (value >> 8) & 0xff, value & 0xff];
}

for (const days of [7, 90] as const) {
	test(`local renderer draws a real ${days}-day PNG of 800x400`, async () => {
		const chart = await renderChartSafely(renderer, breakdown(days), { days });
		assert.ok(chart.png, 'a PNG was rendered');
		assert.deepEqual(chart.png.subarray(0, 8), PNG_SIGNATURE);
		assert.ok(isPng(chart.png));
		assert.deepEqual(readPngSize(chart.png), { width: 800, height: 400 });
		assert.ok(chart.png.length > 5 * 1024, `only ${chart.png.length} bytes: the chart is probably blank`);
		assert.equal(chart.fileName, `stats-${days}d.png`);
		assert.equal(chart.note, null);
	});
}

test('local renderer paints the theme background, so the PNG is not transparent', async () => {
	for (const theme of ['dark', 'light'] as const) {
		const chart = await renderChartSafely(renderer, breakdown(30), { days: 30, theme });
		assert.ok(chart.png);
		const image = await pixels(chart.png);
		const [r, g, b] = hexToRgb(CHART_THEMES[theme].background);
		assert.deepEqual(image.at(0, 0), [r, g, b, 255], `${theme} corner`);
		assert.deepEqual(image.at(799, 399), [r, g, b, 255], `${theme} opposite corner`);
	}
});

test('local renderer draws the title text with the bundled font', async () => {
	const built = buildChartConfig(breakdown(30), { days: 30, theme: 'light' });
	const png = await createLocalRenderer().render(built.config, CHART_SIZE, { background: built.background });
	assert.ok(png);
	const image = await pixels(png);
	// The title sits centred in the top strip; with no usable font that strip stays plain background.
	let dark = 0;
	for (let y = 0; y < 40; y++) {
		for (let x = 200; x < 600; x++) {
			const [r, g, b] = image.at(x, y);
			if (r + g + b < 300) dark++;
		}
	}
	assert.ok(dark > 200, `only ${dark} dark pixels where the title should be`);
});

test('local renderer leaves the caller config untouched', async () => {
	const built = buildChartConfig(breakdown(7), { days: 7 });
	const before = JSON.stringify(built.config);
	await createLocalRenderer().render(built.config, CHART_SIZE, { background: built.background });
	assert.equal(JSON.stringify(built.config), before);
	assert.deepEqual(JSON.parse(before), built.config);
});

test('renderChartSafely with an empty breakdown gives no PNG and a note', async () => {
	const chart = await renderChartSafely(renderer, [], { days: 30 });
	assert.equal(chart.png, null);
	assert.equal(chart.fileName, null);
	assert.equal(chart.note, 'No daily figures to chart yet.');
});

test('renderChartSafely passes on the note when fewer days exist than asked', async () => {
	const chart = await renderChartSafely(renderer, breakdown(12), { days: 30 });
	assert.ok(chart.png);
	assert.equal(chart.note, 'The stats service gives the last 12 days; the chart shows those.');
	assert.equal(chart.fileName, 'stats-30d.png');
});

test('the none renderer gives no PNG, no note and no file', async () => {
	const none = createChartRenderer('none', { quickchartUrl: 'http://127.0.0.1:1' });
	assert.equal(none.name, 'none');
	assert.equal(await none.render(buildChartConfig(breakdown(7), { days: 7 }).config, CHART_SIZE), null);
	assert.deepEqual(await renderChartSafely(none, breakdown(30), { days: 30 }), {
		png: null,
		note: null,
		fileName: null,
	});
});

test('local renderer keeps the alpha channel when the background is translucent', async () => {
	const built = buildChartConfig(breakdown(7), { days: 7 });
	const png = await createLocalRenderer().render(built.config, CHART_SIZE, { background: 'rgba(0, 0, 0, 0.5)' });
	assert.ok(png);
	assert.deepEqual(readPngSize(png), { width: 800, height: 400 });
	assert.equal(png[25], 6, 'colour type RGBA');
	const image = await pixels(png);
	const alpha = image.at(0, 0)[3];
	assert.ok(alpha > 120 && alpha < 135, `corner alpha ${alpha}: half transparent, as asked`);
});

test('local renderer writes an opaque RGB PNG behind an opaque background', async () => {
	const built = buildChartConfig(breakdown(7), { days: 7 });
	const png = await createLocalRenderer().render(built.config, CHART_SIZE, { background: built.background });
	assert.ok(png);
	assert.equal(png[25], 2, 'colour type RGB');
});

test('local renderer draws charts of all-zero and of 20-digit days', async () => {
	for (const sends of [0, Number('99999999999999999999')]) {
		const days = breakdown(30).map((day, index) => ({ ...day, sends: index % 2 === 0 ? sends : 0 }));
		const chart = await renderChartSafely(renderer, days, { days: 30 });
		assert.ok(chart.png, `no PNG for ${sends}`);
		assert.deepEqual(readPngSize(chart.png), { width: 800, height: 400 });
	}
});
