import { buildChartConfig, CHART_THEMES, type BuiltChart, type ChartInput, type ChartTheme } from './chart.js';
import { ObjectViewMemo } from '../object-view-memo.js';
import type { ChartRenderer } from './chart-renderer.js';

/** Size of the chart image: wide enough for 365 bars, and Discord shows it without cropping. */
export const CHART_SIZE = { width: 800, height: 400 } as const;

/** The one logger call a chart failure makes; pino's `warn(object, message)` fits. */
export interface ChartLogger {
	warn(fields: object, message: string): void;
}

/**
 * What became of a chart: a PNG, or why there is none. `problem` is null when the renderer is `none`
 * (charts are off); the caller decides what, if anything, to tell the reader.
 */
export interface RenderedChart {
	png: Buffer | null;
	problem: 'noData' | 'failed' | null;
}

/**
 * Builds and renders the chart; never rejects, so a renderer failure costs the chart and not the reply. Each
 * failure is logged once, with the renderer and the reason, so a wrong QUICKCHART_URL does not go unnoticed.
 */
export async function renderChartSafely(
	renderer: ChartRenderer,
	chartInput: ChartInput,
	options: { log: ChartLogger; theme?: ChartTheme },
): Promise<RenderedChart> {
	if (renderer.name === 'none') return { png: null, problem: null };
	if (chartInput.points.length === 0) return { png: null, problem: 'noData' };
	try {
		const built = builtChartOf(chartInput, options.theme ?? 'dark');
		const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });
		return { png, problem: null };
	} catch (error) {
		options.log.warn({ renderer: renderer.name, reason: reasonOf(error) }, 'chart render failed');
		return { png: null, problem: 'failed' };
	}
}

/**
 * The config built from each chart input, by theme. An input shared by repeated requests (chartInputOf) then gives
 * the same config object, which the renderer's memo recognises without serialising it again.
 */
const builtCharts = new ObjectViewMemo<ChartInput, BuiltChart>(Object.keys(CHART_THEMES).length);

function builtChartOf(input: ChartInput, theme: ChartTheme): BuiltChart {
	return builtCharts.get(input, theme, () => buildChartConfig(input, { theme }));
}

/** One short line; an error's message never holds a key here (the QuickChart URL carries none). */
function reasonOf(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.slice(0, 300);
}
