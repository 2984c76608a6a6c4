import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
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

/** After a worker failed to start, renders fail at once for this long before a new worker is tried. */
export const WORKER_RETRY_MS = 60_000;

/** Charts drawn by warmUp(): about what V8 needs before Chart.js runs at full speed. */
const WARM_UP_CHARTS = 12;

/**
 * From the source (tsx), a plain module that loads the .ts task through tsx's API; from the bundle in dist/, the
 * bundled task beside this chunk (scripts/build.mjs names it).
 */
const WORKER_FILE = new URL(
	import.meta.url.endsWith('.ts') ? './chart-worker.mjs' : './chart-worker.js',
	import.meta.url,
).href;

/** piscina, loaded with the pool: the first render or the warm-up after READY, never during start-up. */
const loadPiscina = () => (createRequire(import.meta.url)('piscina') as typeof import('piscina')).Piscina;

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

export interface PooledRendererOptions {
	threads?: number;
	queueLimit?: number;
	/**
	 * Told when a worker fails outside any render, e.g. at start when a module it loads is missing (a canvas
	 * binary not built for this host): once per WORKER_RETRY_MS at most, since renders fail at once until then.
	 */
	onWorkerError?: (error: unknown) => void;
	/** The worker module: the one beside this file by default. */
	workerFile?: string;
}

/**
 * Renders with Chart.js in a pool of worker threads, so a burst of charts (about 12 ms of CPU each) never delays
 * the main thread's acknowledgements. The pool starts with the first render or warmUp(): a bot with charts off
 * pays nothing. The first worker stays up for good, warm; those a burst adds end after a minute idle.
 */
export function createPooledRenderer(options: PooledRendererOptions = {}): ChartRenderer {
	const threads = options.threads ?? defaultChartThreads();
	const queueLimit = options.queueLimit ?? DEFAULT_CHART_QUEUE_LIMIT;
	let pool: Piscina<ChartTask, Uint8Array> | undefined;
	let isClosed = false;
	let workerFailure: { error: unknown; at: number } | null = null;
	const startPool = () => {
		const started = new (loadPiscina())<ChartTask, Uint8Array>({
			filename: options.workerFile ?? WORKER_FILE,
			minThreads: 1,
			maxThreads: threads,
			maxQueue: queueLimit,
			idleTimeout: 60_000,
			// The task awaits the PNG's deflate on the worker's libuv pool; an Atomics wait between tasks would
			// stall such work.
			atomics: 'disabled',
		});
		// Without a listener, piscina's 'error' event would end the process. A pool whose worker died this way
		// starts no other and would keep later renders queued for ever: it is dropped, its queue rejected.
		started.on('error', (error: unknown) => {
			workerFailure = { error, at: Date.now() };
			if (pool === started) pool = undefined;
			void started.destroy().catch(() => undefined);
			options.onWorkerError?.(error);
		});
		return started;
	};
	const poolOf = () => (pool ??= startPool());
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
			// The member gets the reply without a chart at once, not after a worker's failed start each time.
			if (workerFailure && Date.now() - workerFailure.at < WORKER_RETRY_MS) throw workerFailure.error;
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
