import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ChartRenderer } from './chart-renderer.js';
import type { ChartTask } from './chart-worker.js';
import { buildChartConfig } from './chart.js';

/** Renders waiting for a worker beyond this fail at once: a member waits for a text reply, not for a minute. */
export const DEFAULT_CHART_QUEUE_LIMIT = 64;

export class ChartQueueFullError extends Error {
	constructor(limit: number) {
		super(`chart queue full (${limit} renders waiting)`);
		this.name = 'ChartQueueFullError';
	}
}

/** One core stays with the main thread, which acknowledges interactions; a 1-core host still gets one worker. */
export function defaultChartThreads(): number {
	return Math.max(1, availableParallelism() - 1);
}

/** Charts drawn by warmUp(): about what V8 needs before Chart.js runs at full speed. */
const WARM_UP_CHARTS = 12;

const WORKER_FILE = new URL('./chart-worker.mjs', import.meta.url).href;

/**
 * A chart like a member's (a month of bars, the average line, every label), drawn at start so that each worker has
 * loaded Chart.js, the canvas and the fonts and run the drawing code before the first member asks.
 */
function warmUpTask(variant: number): ChartTask {
	const day = (index: number) => new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10);
	const days = variant % 3 === 2 ? 90 : 30;
	const built = buildChartConfig({
		metric: 'sends',
		points: Array.from({ length: days }, (_, index) => ({
			date: day(index),
			value: 40 + ((index * 37 + variant * 11) % 120),
		})),
		averageSeed: [50, 60, 70, 80, 90, 100],
		locale: 'en-US',
		labels: {
			title: 'Warm-up',
			subtitle: 'Sends per day (UTC days)',
			yAxis: 'Sends',
			series: 'Sends',
			average: '7-day average',
			partialToday: 'Today so far (partial)',
		},
	});
	return { config: built.config, size: { width: 800, height: 400 }, options: { background: built.background } };
}

/**
 * Renders with Chart.js in a pool of worker threads, so a burst of charts (about 12 ms of CPU each) never delays
 * the main thread's acknowledgements. The pool starts with the first render or warmUp(): a bot with charts off
 * pays nothing. The first worker stays up for good, warm; those a burst adds end after a minute idle.
 */
export function createPooledRenderer(options: { threads?: number; queueLimit?: number } = {}): ChartRenderer {
	const threads = options.threads ?? defaultChartThreads();
	const queueLimit = options.queueLimit ?? DEFAULT_CHART_QUEUE_LIMIT;
	let pool: Piscina<ChartTask, Uint8Array> | undefined;
	let isClosed = false;
	const poolOf = () =>
		(pool ??= new Piscina<ChartTask, Uint8Array>({
			filename: WORKER_FILE,
			minThreads: 1,
			maxThreads: threads,
			maxQueue: queueLimit,
			idleTimeout: 60_000,
			// The task awaits the PNG's deflate on the worker's libuv pool; an Atomics wait between tasks would
			// stall such work.
			atomics: 'disabled',
		}));
	return {
		name: 'local',
		async warmUp() {
			if (isClosed) return;
			// One chart leaves V8's drawing code unoptimised (the next few take several times longer): a handful,
			// one after another, on the worker that stays. A warm-up that fails costs nothing.
			const started = poolOf();
			for (let variant = 0; variant < WARM_UP_CHARTS && !isClosed; variant++) {
				const ok = await started.run(warmUpTask(variant)).then(
					() => true,
					() => false,
				);
				if (!ok) return;
			}
		},
		async render(config, size, renderOptions = {}) {
			if (isClosed) throw new Error('chart renderer closed');
			pool = poolOf();
			if (pool.queueSize >= queueLimit) throw new ChartQueueFullError(queueLimit);
			const png = await pool.run({ config, size, options: renderOptions }).catch((error: unknown) => {
				throw error instanceof Error && error.message === 'Task queue is at limit'
					? new ChartQueueFullError(queueLimit)
					: error;
			});
			return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
		},
		async close() {
			isClosed = true;
			const closing = pool;
			pool = undefined;
			await closing?.close();
		},
	};
}
