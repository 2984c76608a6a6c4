import type { ChartConfiguration } from 'chart.js';

/** Turns a Chart.js v4 configuration (pure JSON, no functions) into PNG bytes. */
export interface ChartRenderer {
	readonly name: 'quickchart' | 'local' | 'none';
	/** Resolves to PNG bytes, or null for the `none` renderer. Rejects when rendering fails. */
	render(config: ChartConfiguration, size: { width: number; height: number }): Promise<Buffer | null>;
}
