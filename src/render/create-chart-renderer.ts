import type { ChartRendererName } from '../config.js';
import type { ChartRenderOutcome } from '../metrics/labels.js';
import type { ChartRenderer } from './chart-renderer.js';
import { memoizeRenderer } from './memoized-renderer.js';
import { createPooledRenderer } from './pooled-renderer.js';
import { createQuickChartRenderer } from './quickchart-renderer.js';

export interface ChartRendererOptions {
	quickchartUrl: string;
	timeoutMs?: number;
	/** Worker threads of the local renderer; one less than the machine's cores by default. */
	threads?: number;
	/** Local renders allowed to wait for a worker before "chart queue full". */
	queueLimit?: number;
	/** Told when a chart worker fails outside any render (local renderer). */
	onWorkerError?: (error: unknown) => void;
	/** Told of every chart actually drawn (not the memo's reuses), for metrics. */
	onRender?: OnChartRender;
}

export type OnChartRender = (renderer: ChartRendererName, outcome: ChartRenderOutcome, seconds: number) => void;

/** The renderer `CHART_RENDERER` names. Call close() on shutdown: it ends the workers or the HTTP agent. */
export function createChartRenderer(name: ChartRendererName, options: ChartRendererOptions): ChartRenderer {
	const measured = (renderer: ChartRenderer) =>
		memoizeRenderer(options.onRender ? measureRenderer(renderer, options.onRender) : renderer);
	if (name === 'local') return measured(createPooledRenderer(options));
	if (name === 'quickchart') return measured(createQuickChartRenderer(options));
	return { name: 'none', render: async () => null, close: async () => {} };
}

// Below the memo on purpose: a reused PNG costs nothing, and a count of real draws shows whether the memo works.
function measureRenderer(renderer: ChartRenderer, onRender: OnChartRender): ChartRenderer {
	return {
		name: renderer.name,
		async render(config, size, renderOptions) {
			const started = performance.now();
			const seconds = () => (performance.now() - started) / 1000;
			try {
				const png = await renderer.render(config, size, renderOptions);
				onRender(renderer.name, 'ok', seconds());
				return png;
			} catch (error) {
				onRender(renderer.name, isTimeout(error) ? 'timeout' : 'failed', seconds());
				throw error;
			}
		},
		// Not measured: a warm-up is no member's chart.
		warmUp: renderer.warmUp ? () => renderer.warmUp!() : undefined,
		close: () => renderer.close(),
	};
}

// QuickChart's renderer reports its deadline in the message; an aborted undici request is a TimeoutError.
function isTimeout(error: unknown): boolean {
	if (!(error instanceof Error)) return false;
	return error.name === 'TimeoutError' || /did not answer within/.test(error.message);
}
