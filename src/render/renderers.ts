import type { DailySends } from '../stats-api/snapshot.js';
import { buildChartConfig } from './chart.js';
import type { ChartDays, ChartTheme } from './chart.js';
import type { ChartRenderer } from './chart-renderer.js';
import { chartFileName } from './embed.js';
import { createLocalRenderer } from './local-renderer.js';
import { createQuickChartRenderer } from './quickchart-renderer.js';

export type ChartRendererName = ChartRenderer['name'];

/** Chart size in pixels: wide enough for 90 bars and readable labels in Discord's embed image slot. */
export const CHART_SIZE = { width: 800, height: 400 } as const;

/** Shown in the embed when a renderer fails, so the member still gets the numbers. */
export const CHART_UNAVAILABLE_NOTE = 'Chart unavailable right now.';

/** The renderer named by CHART_RENDERER; `none` renders nothing (resolves to null). */
export function createChartRenderer(
	name: ChartRendererName,
	options: { quickchartUrl: string; timeoutMs?: number },
): ChartRenderer {
	switch (name) {
		case 'quickchart':
			return createQuickChartRenderer(options);
		case 'local':
			return createLocalRenderer();
		case 'none':
			return { name: 'none', render: async () => null };
	}
}

export interface SafeChartOptions {
	days: ChartDays;
	theme?: ChartTheme;
	locale?: string;
	/** Told about a rendering failure (for the log); the member only sees the note. */
	onError?: (error: unknown) => void;
}

export interface SafeChart {
	png: Buffer | null;
	/** For the embed: why there is no chart, or that fewer days than asked are shown; null when nothing to say. */
	note: string | null;
	/** The attachment name to upload `png` under, null when there is no PNG. */
	fileName: string | null;
}

/** Builds and renders the chart; never rejects, a failure becomes `png: null` with a note for the embed. */
export async function renderChartSafely(
	renderer: ChartRenderer,
	breakdown: DailySends[],
	options: SafeChartOptions,
): Promise<SafeChart> {
	try {
		const built = buildChartConfig(breakdown, options);
		const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });
		if (png === null) return { png: null, note: null, fileName: null };
		return { png, note: built.note, fileName: chartFileName(options.days) };
	} catch (error) {
		try {
			options.onError?.(error);
		} catch {
			// A failing logger must not turn a missing chart into a failed reply.
		}
		return { png: null, note: CHART_UNAVAILABLE_NOTE, fileName: null };
	}
}
