// Chart rendering figures: the local renderer (Chart.js on @napi-rs/canvas) per PNG, beside the fixed cost of
// PNG-encoding a blank canvas of the same size; and the main thread's event-loop delay during a burst of different
// renders, worker pool against rendering on the main thread, measured in the same run.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { buildChartConfig, englishChartLabels, type ChartInput } from '../src/render/chart.js';
import { createChartRenderer } from '../src/render/create-chart-renderer.js';
import { CHART_SIZE, renderChartSafely } from '../src/render/draw-chart.js';
import type { ChartRenderer } from '../src/render/chart-renderer.js';
import { createLocalRenderer } from '../src/render/local-renderer.js';
import { createPooledRenderer } from '../src/render/pooled-renderer.js';
import { encodeOpaquePng } from '../src/render/png.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const GOAL_MS = 15;
const WARM_UP_RENDERS = 5;
const BURST_RENDERS = 50;
/** An acknowledgement must leave within ~3 s of a click; a main thread stalled this long already shows. */
const BURST_DELAY_GOAL_MS = 50;
const DAY_MS = 86_400_000;
const silent = { warn: () => {} };

/** `days` days of plausible sends ending today; `variant` shifts every value so each render misses the PNG memo. */
function inputFor(days: number, variant: number): ChartInput {
	const last = Date.UTC(2026, 10, 23);
	const points = Array.from({ length: days }, (_, index) => ({
		date: new Date(last - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
		value: 40 + ((index * 37 + variant * 11) % 120) + (index % 7 === 5 ? 60 : 0),
	}));
	return {
		metric: 'sends',
		points,
		averageSeed: [50, 60, 70, 80, 90, 100],
		locale: 'en-US',
		labels: englishChartLabels({
			metric: 'sends',
			accountName: 'Bench account',
			from: points[0]!.date,
			to: points.at(-1)!.date,
		}),
	};
}

async function timeRenders(renderer: ChartRenderer, days: number, runs: number, firstVariant: number) {
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const input = inputFor(days, firstVariant + run);
		const started = performance.now();
		const chart = await renderChartSafely(renderer, input, { log: silent });
		times.push(performance.now() - started);
		if (!chart.png) throw new Error(`no PNG rendered (${chart.problem ?? 'charts are off'})`);
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

/**
 * 50 different 90-day charts asked for back to back (one per turn of the event loop, as interactions arrive), while
 * the event loop's delay is sampled every millisecond: what an acknowledgement arriving meanwhile would wait.
 */
async function burstDelay(renderer: ChartRenderer, firstVariant: number) {
	const configs = Array.from({ length: BURST_RENDERS }, (_, index) =>
		buildChartConfig(inputFor(90, firstVariant + index)),
	);
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	histogram.enable();
	const started = performance.now();
	const renders: Promise<Buffer | null>[] = [];
	for (const built of configs) {
		renders.push(renderer.render(built.config, CHART_SIZE, { background: built.background }));
		await nextTurn();
	}
	const pngs = await Promise.all(renders);
	const wallMs = performance.now() - started;
	histogram.disable();
	if (pngs.some((png) => !png)) throw new Error('a burst render gave no PNG');
	return { p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6, wallMs };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Local chart figures in ms: render times per PNG, the memo, and the event-loop delay of a burst, pool vs main. */
export async function runChartBench(options: { iterations?: number } = {}): Promise<BenchFigure[]> {
	const runs = options.iterations ?? 60;
	// Renders on this thread: the per-PNG cost itself, free of the hand-off to a worker.
	const mainThread = createLocalRenderer();
	const memoized = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:9' });
	const pool = createPooledRenderer();
	try {
		// Loads Chart.js, the canvas and the fonts, starts the pool's workers, and lets V8 optimise the drawing code.
		await timeRenders(mainThread, 30, WARM_UP_RENDERS, -WARM_UP_RENDERS);
		await timeRenders(pool, 30, WARM_UP_RENDERS, -WARM_UP_RENDERS);

		const blank = await timeBlankEncodes(runs, 'skia');
		const blankOpaque = await timeBlankEncodes(runs, 'opaque');
		const month = await timeRenders(mainThread, 30, runs, 0);
		const quarter = await timeRenders(mainThread, 90, runs, runs);
		const year = await timeRenders(mainThread, 365, runs, 2 * runs);
		// The same snapshot again (repeat /stats, Share): the memo answers without drawing.
		await timeRenders(memoized, 30, 1, 0);
		const repeated = await timeRepeated(memoized, runs);
		const onMain = await burstDelay(mainThread, 10_000);
		const inPool = await burstDelay(pool, 20_000);
		const afterStart = await firstChartsAfterStart(30_000);

		const blankP50 = percentile(blank, 50);
		const monthP50 = percentile(month, 50);
		const quarterP50 = percentile(quarter, 50);
		const yearP50 = percentile(year, 50);
		return [
			...renderFigures('30 days', month, blank, GOAL_MS),
			...renderFigures('90 days', quarter, blank, GOAL_MS),
			{
				name: 'local chart, 365 days, 800x400 PNG, p50',
				value: yearP50,
				unit: 'ms',
				baseline: quarterP50,
				// Four times the bars of 90 days; the fixed costs (canvas, text, encoding) stay the same.
				goal: 'within 2x the 90-day p50 (baseline)',
				met: yearP50 <= 2 * quarterP50,
			},
			{
				name: 'blank 800x400 canvas to PNG, p50 (fixed cost of PNG encoding)',
				value: blankP50,
				unit: 'ms',
				baseline: null,
				goal: "skia's PNG encoder; baseline of the chart figures",
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
			...afterStart,
			{
				name: `event-loop delay p99 during a burst of ${BURST_RENDERS} different 90-day charts, worker pool`,
				value: round(inPool.p99Ms),
				unit: 'ms',
				baseline: round(onMain.p99Ms),
				goal: `below ${BURST_DELAY_GOAL_MS} ms; baseline: the same burst rendered on the main thread`,
				met: inPool.p99Ms < BURST_DELAY_GOAL_MS,
			},
			{
				name: `event-loop delay max during a burst of ${BURST_RENDERS} different 90-day charts, worker pool`,
				value: round(inPool.maxMs),
				unit: 'ms',
				baseline: round(onMain.maxMs),
				goal: 'reported beside the main-thread max (baseline)',
				met: null,
			},
			{
				name: `wall time of a burst of ${BURST_RENDERS} different 90-day charts, worker pool`,
				value: round(inPool.wallMs),
				unit: 'ms',
				baseline: round(onMain.wallMs),
				goal: 'reported beside the main-thread wall time (baseline); the pool trades a hand-off for a free loop',
				met: null,
			},
		];
	} finally {
		await Promise.all([mainThread.close(), memoized.close(), pool.close()]);
	}
}

const STARTS = 3;
const TENTH = 10;

/**
 * The first chart a member gets after the bot started, beside the tenth: for each of a few fresh renderers (a fresh
 * worker thread each, as in a new bot process), built as the bot builds it and warmed as start-up warms it once
 * READY, ten different 30-day charts one after another. The same again without the warm-up, for comparison.
 */
async function firstChartsAfterStart(firstVariant: number): Promise<BenchFigure[]> {
	const firstWarm: number[] = [];
	const tenthWarm: number[] = [];
	const firstCold: number[] = [];
	for (let start = 0; start < STARTS; start++) {
		for (const warm of [true, false]) {
			const renderer = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:9' });
			try {
				if (warm) await renderer.warmUp?.();
				const variant = firstVariant + (start * 2 + (warm ? 0 : 1)) * TENTH;
				const times = await timeRenders(renderer, 30, TENTH, variant);
				if (warm) {
					firstWarm.push(times[0]!);
					tenthWarm.push(times[TENTH - 1]!);
				} else firstCold.push(times[0]!);
			} finally {
				await renderer.close();
			}
		}
	}
	const tenth = percentile(tenthWarm, 50);
	const first = percentile(firstWarm, 50);
	return [
		{
			name: `first local chart after start (render pool warmed at start), median of ${STARTS} starts`,
			value: round(first),
			unit: 'ms',
			baseline: round(tenth),
			goal: 'as fast as the tenth chart (baseline), within 1.25x for noise',
			met: first <= 1.25 * tenth,
		},
		{
			name: `first local chart after start without the warm-up, median of ${STARTS} starts`,
			value: round(percentile(firstCold, 50)),
			unit: 'ms',
			baseline: round(tenth),
			goal: 'report: what the warm-up saves the first member (baseline: the tenth chart)',
			met: null,
		},
	];
}

function renderFigures(range: string, times: number[], blank: number[], goalMs: number): BenchFigure[] {
	const p50 = percentile(times, 50);
	return [
		{
			name: `local chart, ${range}, 800x400 PNG, p50`,
			value: p50,
			unit: 'ms',
			baseline: percentile(blank, 50),
			goal: `local chart p50 < ${goalMs} ms`,
			met: p50 < goalMs,
		},
		{
			name: `local chart, ${range}, 800x400 PNG, p99`,
			value: percentile(times, 99),
			unit: 'ms',
			baseline: percentile(blank, 99),
			goal: 'reported beside the blank-canvas p99',
			met: null,
		},
	];
}

async function timeRepeated(renderer: ChartRenderer, runs: number): Promise<number[]> {
	const input = inputFor(30, 0);
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const started = performance.now();
		await renderChartSafely(renderer, input, { log: silent });
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
