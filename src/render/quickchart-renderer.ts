import { createRequire } from 'node:module';
import type { ChartRenderer } from './chart-renderer.js';
import { isPng } from './png.js';

/** The part of quickchart-js used here. Its bundled declarations resolve to a namespace under NodeNext. */
interface QuickChartClient {
	setScheme(scheme: string): this;
	setHost(host: string): this;
	setVersion(version: string): this;
	setConfig(config: object): this;
	setWidth(width: number): this;
	setHeight(height: number): this;
	setDevicePixelRatio(ratio: number): this;
	setFormat(format: string): this;
	setBackgroundColor(color: string): this;
	toBinary(): Promise<Buffer>;
}
const QuickChart = createRequire(import.meta.url)('quickchart-js') as new () => QuickChartClient;

/** quickchart-js has no timeout of its own (PITFALLS 8/9), so every render gets this deadline. */
export const DEFAULT_QUICKCHART_TIMEOUT_MS = 4000;

/**
 * Renders through QuickChart (public or self-hosted) and returns the PNG bytes, which the bot
 * uploads: an embed never points at QuickChart, so no URL (or key in one) can expire or leak.
 */
export function createQuickChartRenderer(options: { quickchartUrl: string; timeoutMs?: number }): ChartRenderer {
	const base = new URL(options.quickchartUrl);
	const scheme = base.protocol.replace(':', '');
	// quickchart-js builds `${scheme}://${host}/chart`, so a path prefix of a self-hosted instance rides on the host.
	const host = `${base.host}${base.pathname.replace(/\/+$/, '')}`;
	const timeoutMs = options.timeoutMs ?? DEFAULT_QUICKCHART_TIMEOUT_MS;
	return {
		name: 'quickchart',
		async render(config, size, renderOptions = {}) {
			const chart = new QuickChart()
				.setScheme(scheme)
				.setHost(host)
				.setVersion('4') // the library's default is Chart.js 2.9.4, which reads our v4 config wrongly
				.setConfig(config)
				.setWidth(size.width)
				.setHeight(size.height)
				.setDevicePixelRatio(1)
				.setFormat('png');
			if (renderOptions.background) chart.setBackgroundColor(renderOptions.background);
			const bytes = await withDeadline(chart.toBinary(), timeoutMs);
			if (!isPng(bytes)) throw new Error('QuickChart answered with something other than a PNG');
			return bytes;
		},
	};
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new Error(`QuickChart did not answer within ${ms} ms`)), ms);
	});
	return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
