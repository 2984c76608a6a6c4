import type { DailySends } from '../stats-api/snapshot.js';
import type { ChartRendererName } from '../config.js';
import { buildChartConfig, type ChartDays, type ChartTheme } from './chart.js';
import type { ChartRenderer } from './chart-renderer.js';
import { chartFileName } from './embed.js';
import { memoizeRenderer } from './memoized-renderer.js';
import { createQuickChartRenderer } from './quickchart-renderer.js';

/** Size of the chart image: wide enough for 90 bars, and Discord shows it without cropping. */
export const CHART_SIZE = { width: 800, height: 400 } as const;
export const CHART_UNAVAILABLE_NOTE = 'Chart unavailable right now.';

export interface RenderedChart {
	png: Buffer | null;
	/** Set when the chart shows fewer days than asked, or could not be drawn. */
	note: string | null;
	/** The attachment name the embed must point at, or null without a PNG. */
	fileName: string | null;
}

/** The renderer `CHART_RENDERER` names. */
export function createChartRenderer(
	name: ChartRendererName,
	options: { quickchartUrl: string; timeoutMs?: number },
): ChartRenderer {
	if (name === 'local') return memoizeRenderer(lazyLocalRenderer());
	if (name === 'quickchart') return memoizeRenderer(createQuickChartRenderer(options));
	return { name: 'none', render: async () => null };
}

/** Chart.js, the canvas and the font load with the first chart, not at start-up (~5 MiB of heap). */
function lazyLocalRenderer(): ChartRenderer {
	let loading: Promise<ChartRenderer> | undefined;
	return {
		name: 'local',
		async render(config, size, options) {
			loading ??= import('./local-renderer.js').then((module) => module.createLocalRenderer());
			return (await loading).render(config, size, options);
		},
	};
}

/** Builds and renders the chart; never rejects, so a renderer failure costs the chart and not the reply. */
export async function renderChartSafely(
	renderer: ChartRenderer,
	breakdown: DailySends[],
	options: { days: ChartDays; locale?: string; theme?: ChartTheme },
): Promise<RenderedChart> {
	if (renderer.name === 'none') return { png: null, note: null, fileName: null };
	const built = buildChartConfig(breakdown, options);
	if (built.shownDays === 0) return { png: null, note: 'No daily figures to chart yet.', fileName: null };
	try {
		const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });
		if (!png) return { png: null, note: built.note, fileName: null };
		return { png, note: built.note, fileName: chartFileName(options.days) };
	} catch {
		return { png: null, note: CHART_UNAVAILABLE_NOTE, fileName: null };
	}
}
