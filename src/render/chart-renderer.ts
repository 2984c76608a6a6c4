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
	/** Releases workers and sockets; renders after close reject. Safe to call twice. */
	close(): Promise<void>;
}
