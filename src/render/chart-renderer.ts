import type { ChartConfiguration } from 'chart.js';
import type { ChartRendererName } from '../config.js';

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
	/**
	 * Gets ready to draw (workers started, Chart.js, the canvas and the fonts loaded, the drawing code run
	 * once), so the first member's chart costs what the tenth does. Never rejects; absent when there is
	 * nothing to prepare.
	 */
	warmUp?(): Promise<void>;
	/** Releases workers and sockets; renders after close reject. Safe to call twice. */
	close(): Promise<void>;
}
