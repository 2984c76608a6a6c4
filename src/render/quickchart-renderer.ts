import { createRequire } from 'node:module';
import { undici } from '../lazy-packages.js';
import type { ChartRenderer } from './chart-renderer.js';
import { isPng } from './png.js';

/** The part of quickchart-js used here: it shapes the request body, undici sends it. */
interface QuickChartClient {
	setVersion(version: string): this;
	setConfig(config: object): this;
	setWidth(width: number): this;
	setHeight(height: number): this;
	setDevicePixelRatio(ratio: number): this;
	setFormat(format: string): this;
	setBackgroundColor(color: string): this;
	getPostData(): Record<string, unknown>;
}
// Its bundled declarations resolve to a namespace under NodeNext, hence require; called when the renderer is made,
// so a bot drawing its charts itself never loads it (and its own fetch library).
const loadQuickChart = () => createRequire(import.meta.url)('quickchart-js') as new () => QuickChartClient;

/** Deadline of one render, connection and download included. */
export const DEFAULT_QUICKCHART_TIMEOUT_MS = 4000;
/** A chart PNG is tens of KiB; anything far larger is not a chart. */
const MAX_PNG_BYTES = 8 * 1024 * 1024;

/**
 * Renders through QuickChart (public or self-hosted) and returns the PNG bytes, which the bot uploads unchanged: an
 * embed never points at QuickChart, so no URL (or key in one) can expire or leak. quickchart-js's own toBinary()
 * has no deadline and keeps downloading after one, so the request goes through undici with an AbortSignal that
 * cancels it, connection included.
 */
export function createQuickChartRenderer(options: { quickchartUrl: string; timeoutMs?: number }): ChartRenderer {
	// A self-hosted instance may sit under a path prefix.
	const endpoint = `${options.quickchartUrl.replace(/\/+$/, '')}/chart`;
	const timeoutMs = options.timeoutMs ?? DEFAULT_QUICKCHART_TIMEOUT_MS;
	const QuickChart = loadQuickChart();
	const { Agent, request } = undici();
	const agent = new Agent({
		connect: { timeout: Math.min(timeoutMs, 3000) },
		headersTimeout: timeoutMs,
		bodyTimeout: timeoutMs,
	});
	return {
		name: 'quickchart',
		async render(config, size, renderOptions = {}) {
			const chart = new QuickChart()
				.setVersion('4') // the library's default is Chart.js 2.9.4, which reads our v4 config wrongly
				.setConfig(config)
				.setWidth(size.width)
				.setHeight(size.height)
				.setDevicePixelRatio(1)
				.setFormat('png');
			if (renderOptions.background) chart.setBackgroundColor(renderOptions.background);
			const signal = AbortSignal.timeout(timeoutMs);
			try {
				const response = await request(endpoint, {
					method: 'POST',
					dispatcher: agent,
					signal,
					headers: { 'content-type': 'application/json', accept: 'image/png' },
					body: JSON.stringify(chart.getPostData()),
				});
				if (response.statusCode !== 200) {
					await response.body.dump();
					const detail = headerText(response.headers['x-quickchart-error']);
					throw new Error(`QuickChart answered ${response.statusCode}${detail ? `: ${detail}` : ''}`);
				}
				const declared = Number(response.headers['content-length']);
				if (declared > MAX_PNG_BYTES) {
					await response.body.dump();
					throw new Error(`QuickChart answered ${declared} bytes, more than a chart`);
				}
				const bytes = Buffer.from(await response.body.arrayBuffer());
				if (!isPng(bytes)) throw new Error('QuickChart answered with something other than a PNG');
				return bytes;
			} catch (error) {
				if (signal.aborted) throw new Error(`QuickChart did not answer within ${timeoutMs} ms`);
				throw error;
			}
		},
		close: () => agent.close(),
	};
}

function headerText(value: string | string[] | undefined): string {
	const text = Array.isArray(value) ? value.join(' ') : (value ?? '');
	return text.slice(0, 200);
}
