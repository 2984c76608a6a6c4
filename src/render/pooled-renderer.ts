import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ChartRenderer } from './chart-renderer.js';
import type { ChartTask } from './chart-worker.js';

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

const WORKER_FILE = new URL('./chart-worker.mjs', import.meta.url).href;

/**
 * Renders with Chart.js in a pool of worker threads, so a burst of charts (about 12 ms of CPU each) never delays
 * the main thread's acknowledgements. The pool starts with the first render: a bot with charts off pays nothing.
 */
export function createPooledRenderer(options: { threads?: number; queueLimit?: number } = {}): ChartRenderer {
	const threads = options.threads ?? defaultChartThreads();
	const queueLimit = options.queueLimit ?? DEFAULT_CHART_QUEUE_LIMIT;
	let pool: Piscina<ChartTask, Uint8Array> | undefined;
	let isClosed = false;
	return {
		name: 'local',
		async render(config, size, renderOptions = {}) {
			if (isClosed) throw new Error('chart renderer closed');
			pool ??= new Piscina<ChartTask, Uint8Array>({
				filename: WORKER_FILE,
				minThreads: 1,
				maxThreads: threads,
				maxQueue: queueLimit,
				idleTimeout: 60_000,
				// The task awaits the PNG's deflate on the worker's libuv pool; an Atomics wait between tasks would
				// stall such work.
				atomics: 'disabled',
			});
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
