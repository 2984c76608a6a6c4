import { type ChartConfiguration } from 'chart.js';
import { type ChartRendererName, buildChartConfig, type ChartInput, type ChartTheme } from './chart.js';
import { chartFileName } from './embed.js';
import { memoizeRenderer } from './memoized-renderer.js';
import { createPooledRenderer } from './pooled-renderer.js';
import { createQuickChartRenderer } from './quickchart-renderer.js';

/** How the PNG is painted beyond the chart itself. */
export interface ChartRenderOptions {
	/** CSS colour painted behind the chart; a transparent PNG is unreadable in one of Discord's themes. */
	background?: string;
}

export interface ChartSize {
	width: number;
	height: number;
}

/** Turns a Chart.js v4 configuration (pure JSON, no functions) into PNG bytes. */
export interface ChartRenderer {
	readonly name: ChartRendererName;
	/** Resolves to PNG bytes, or null for the `none` renderer. Rejects when rendering fails. */
	render(config: ChartConfiguration, size: ChartSize, options?: ChartRenderOptions): Promise<Buffer | null>;
	/** Releases workers and sockets; renders after close reject. Safe to call twice. */
	close(): Promise<void>;
}

/** Size of the chart image: wide enough for 365 bars, and Discord shows it without cropping. */
export const CHART_SIZE = { width: 800, height: 400 } as const;
export const CHART_UNAVAILABLE_NOTE = 'Chart unavailable right now.';
export const NO_CHART_DATA_NOTE = 'No daily figures to chart yet.';

/** The one logger call a chart failure makes; pino's `warn(object, message)` fits. */
export interface ChartLogger {
	warn(fields: object, message: string): void;
}

export interface RenderedChart {
	png: Buffer | null;
	/** Set when the chart shows fewer days than asked, or could not be drawn. */
	note: string | null;
	/** The attachment name the embed must point at, or null without a PNG. */
	fileName: string | null;
}

export interface ChartRendererOptions {
	quickchartUrl: string;
	timeoutMs?: number;
	/** Worker threads of the local renderer; one less than the machine's cores by default. */
	threads?: number;
	/** Local renders allowed to wait for a worker before "chart queue full". */
	queueLimit?: number;
	/** Told of every chart actually drawn (not the memo's reuses), for metrics. */
	onRender?: OnChartRender;
}

export type ChartRenderOutcome = 'ok' | 'failed' | 'timeout';
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
		close: () => renderer.close(),
	};
}

// QuickChart's renderer reports its deadline in the message; an aborted undici request is a TimeoutError.
function isTimeout(error: unknown): boolean {
	if (!(error instanceof Error)) return false;
	return error.name === 'TimeoutError' || /did not answer within/.test(error.message);
}

/**
 * Builds and renders the chart; never rejects, so a renderer failure costs the chart and not the reply. Each
 * failure is logged once, with the renderer and the reason, so a wrong QUICKCHART_URL does not go unnoticed.
 */
export async function renderChartSafely(
	renderer: ChartRenderer,
	chartInput: ChartInput,
	options: { log: ChartLogger; theme?: ChartTheme; fileName?: string },
): Promise<RenderedChart> {
	const fileName = options.fileName ?? chartFileName(chartInput.points.length);
	if (renderer.name === 'none') return { png: null, note: null, fileName: null };
	if (chartInput.points.length === 0) return { png: null, note: NO_CHART_DATA_NOTE, fileName: null };
	try {
		const built = buildChartConfig(chartInput, { theme: options.theme });
		const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });
		if (!png) return { png: null, note: null, fileName: null };
		return { png, note: null, fileName };
	} catch (error) {
		options.log.warn({ renderer: renderer.name, reason: reasonOf(error) }, 'chart render failed');
		return { png: null, note: CHART_UNAVAILABLE_NOTE, fileName: null };
	}
}

/** One short line; an error's message never holds a key here (the QuickChart URL carries none). */
function reasonOf(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.slice(0, 300);
}
