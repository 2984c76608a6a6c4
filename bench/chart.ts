// Chart rendering figures: the local renderer (Chart.js on @napi-rs/canvas) per PNG, beside the fixed
// cost of PNG-encoding a blank canvas of the same size, measured in the same run.
import { pathToFileURL } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { CHART_SIZE, createChartRenderer, renderChartSafely } from '../src/render/chart-output.js';
import { encodeOpaquePng } from '../src/render/png.js';
import type { ChartDays } from '../src/render/chart.js';
import type { ChartRenderer } from '../src/render/chart-renderer.js';
import type { DailySends } from '../src/stats-api/snapshot.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const GOAL_MS = 15;
const WARM_UP_RENDERS = 5;
const DAY_MS = 86_400_000;

/** 90 days of plausible sends; `variant` shifts every value so each render misses the renderer's PNG memo. */
function breakdownFor(variant: number): DailySends[] {
	const last = Date.UTC(2026, 10, 21);
	return Array.from({ length: 90 }, (_, index) => ({
		date: new Date(last - (89 - index) * DAY_MS).toISOString().slice(0, 10),
		sends: 40 + ((index * 37 + variant * 11) % 120) + (index % 7 === 5 ? 60 : 0),
	}));
}

async function timeRenders(renderer: ChartRenderer, days: ChartDays, runs: number, firstVariant: number) {
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const breakdown = breakdownFor(firstVariant + run);
		const started = performance.now();
		const chart = await renderChartSafely(renderer, breakdown, { days });
		times.push(performance.now() - started);
		if (!chart.png) throw new Error(`no PNG rendered (${chart.note ?? 'no note'})`);
	}
	return times;
}

/** A blank, filled canvas to PNG: with skia's encoder (`encode('png')`) or the renderer's opaque RGB encoder. */
async function timeBlankEncodes(runs: number, encoder: 'skia' | 'opaque'): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < runs + WARM_UP_RENDERS; run++) {
		const started = performance.now();
		const canvas = createCanvas(CHART_SIZE.width, CHART_SIZE.height);
		const context = canvas.getContext('2d');
		context.fillStyle = '#2b2d31';
		context.fillRect(0, 0, CHART_SIZE.width, CHART_SIZE.height);
		if (encoder === 'skia') await canvas.encode('png');
		else await encodeOpaquePng(canvas.data(), canvas.width, canvas.height);
		if (run >= WARM_UP_RENDERS) times.push(performance.now() - started);
	}
	return times;
}

/** Local chart render times in ms (p50/p99 per PNG, 30 and 90 days), each render drawn afresh, beside a blank encode. */
export async function runChartBench(options: { iterations?: number } = {}): Promise<BenchFigure[]> {
	const runs = options.iterations ?? 60;
	const renderer = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:9' });
	// Loads Chart.js, the canvas and the font, and lets V8 optimise the drawing code.
	await timeRenders(renderer, 30, WARM_UP_RENDERS, -WARM_UP_RENDERS);

	const blank = await timeBlankEncodes(runs, 'skia');
	const blankOpaque = await timeBlankEncodes(runs, 'opaque');
	const month = await timeRenders(renderer, 30, runs, 0);
	const quarter = await timeRenders(renderer, 90, runs, runs);
	// The same snapshot again (repeat /stats, Share): the memo answers without drawing.
	const repeated = await timeRenders(renderer, 30, 1, 0).then(() => timeRepeated(renderer, runs));

	const blankP50 = percentile(blank, 50);
	const monthP50 = percentile(month, 50);
	const quarterP50 = percentile(quarter, 50);
	return [
		{
			name: 'local chart, 30 days, 800x400 PNG, p50',
			value: monthP50,
			unit: 'ms',
			baseline: blankP50,
			goal: `local chart p50 < ${GOAL_MS} ms`,
			met: monthP50 < GOAL_MS,
		},
		{
			name: 'local chart, 30 days, 800x400 PNG, p99',
			value: percentile(month, 99),
			unit: 'ms',
			baseline: percentile(blank, 99),
			goal: 'reported beside the blank-canvas p99',
			met: null,
		},
		{
			name: 'local chart, 90 days, 800x400 PNG, p50',
			value: quarterP50,
			unit: 'ms',
			baseline: blankP50,
			goal: `local chart p50 < ${GOAL_MS} ms`,
			met: quarterP50 < GOAL_MS,
		},
		{
			name: 'local chart, 90 days, 800x400 PNG, p99',
			value: percentile(quarter, 99),
			unit: 'ms',
			baseline: percentile(blank, 99),
			goal: 'reported beside the blank-canvas p99',
			met: null,
		},
		{
			name: 'blank 800x400 canvas to PNG, p50 (fixed cost of PNG encoding)',
			value: blankP50,
			unit: 'ms',
			baseline: null,
			goal: "skia's PNG encoder, which the renderer used before; baseline of the chart figures",
			met: null,
		},
		{
			name: 'blank 800x400 canvas to PNG through the opaque RGB encoder the renderer uses, p50',
			value: percentile(blankOpaque, 50),
			unit: 'ms',
			baseline: blankP50,
			goal: 'below skia encode (baseline)',
			met: percentile(blankOpaque, 50) < blankP50,
		},
		{
			name: 'local chart, same snapshot again (memoized PNG), p50',
			value: percentile(repeated, 50),
			unit: 'ms',
			baseline: monthP50,
			goal: 'well under a fresh render (baseline)',
			met: percentile(repeated, 50) < monthP50 / 10,
		},
	];
}

async function timeRepeated(renderer: ChartRenderer, runs: number): Promise<number[]> {
	const breakdown = breakdownFor(0);
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const started = performance.now();
		await renderChartSafely(renderer, breakdown, { days: 30 });
		times.push(performance.now() - started);
	}
	return times;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	for (const figure of await runChartBench()) {
		const baseline = figure.baseline === null ? '' : ` (baseline ${figure.baseline} ${figure.unit})`;
		const met = figure.met === null ? '' : figure.met ? ' met' : ' MISSED';
		console.log(`${figure.name}: ${figure.value} ${figure.unit}${baseline}; ${figure.goal}${met}`);
	}
}
