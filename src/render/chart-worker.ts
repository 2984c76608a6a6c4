import { Piscina } from 'piscina';
import type { ChartConfiguration } from 'chart.js';
import type { ChartRenderOptions, ChartSize } from './chart-renderer.js';
import { drawChartPng } from './local-renderer.js';

export interface ChartTask {
	config: ChartConfiguration;
	size: ChartSize;
	options: ChartRenderOptions;
}

/** One render in a pool worker. The PNG's memory is handed to the main thread (moved, not copied). */
export default async function renderChartTask(task: ChartTask): Promise<unknown> {
	const png = await drawChartPng(task.config, task.size, task.options);
	// Moving a buffer moves its whole ArrayBuffer: a PNG that shares one (Node's 8 KiB pool) is copied out first.
	const owned = png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? png : new Uint8Array(png);
	return Piscina.move(owned);
}
