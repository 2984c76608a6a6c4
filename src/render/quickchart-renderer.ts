import QuickChartModule from 'quickchart-js';
import type { ChartRenderer, ChartRenderOptions } from './chart-renderer.js';
import { isPng } from './png.js';

// quickchart-js ships CommonJS-style typings for an ES module: under NodeNext the types put the class on `.default`
// while Node's ESM import hands over the class itself. This takes whichever holds it.
const QuickChart = ((QuickChartModule as unknown as { default?: unknown }).default ??
	QuickChartModule) as typeof QuickChartModule.default;

/** quickchart-js has no timeout of its own; a chart that is not back by then is given up. */
export const DEFAULT_QUICKCHART_TIMEOUT_MS = 4000;

export interface QuickChartRendererOptions {
	/** QuickChart host, e.g. `https://quickchart.io` or a self-hosted `http://127.0.0.1:3400/prefix`. */
	quickchartUrl: string;
	timeoutMs?: number;
}

/** Renders through a QuickChart server (Chart.js v4) and returns the PNG bytes, which the bot uploads itself:
 * an embed never points at a third-party URL, and getUrl()/getShortUrl() are never used. */
export function createQuickChartRenderer(options: QuickChartRendererOptions): ChartRenderer {
	const base = new URL(options.quickchartUrl);
	const scheme = base.protocol.replace(/:$/, '');
	// quickchart-js builds `${scheme}://${host}/chart`, so a path prefix rides along in the host.
	const host = `${base.host}${base.pathname.replace(/\/+$/, '')}`;
	const timeoutMs = options.timeoutMs ?? DEFAULT_QUICKCHART_TIMEOUT_MS;

	return {
		name: 'quickchart',
		async render(config, size, renderOptions?: ChartRenderOptions) {
			const chart = new QuickChart()
				.setScheme(scheme)
				.setHost(host)
				.setVersion('4')
				// A JSON string rather than the object: quickchart-js would serialise an object as JavaScript source.
				.setConfig(JSON.stringify(config))
				.setWidth(size.width)
				.setHeight(size.height)
				.setDevicePixelRatio(1)
				.setFormat('png');
			if (renderOptions?.background) chart.setBackgroundColor(renderOptions.background);

			const bytes = await withDeadline(chart.toBinary(), timeoutMs);
			if (!isPng(bytes)) throw new Error('QuickChart answered with something other than a PNG');
			return bytes;
		},
	};
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`QuickChart did not answer within ${timeoutMs} ms`)), timeoutMs);
	});
	// The losing request cannot be aborted (quickchart-js takes no signal); it is left to finish or fail on its own.
	work.catch(() => {});
	return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
