import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import {
	BarController,
	BarElement,
	CategoryScale,
	Chart,
	Legend,
	LinearScale,
	LineController,
	LineElement,
	PointElement,
	Title,
} from 'chart.js';
import type { ChartConfiguration, ChartItem } from 'chart.js';
import type { ChartRenderer, ChartRenderOptions } from './chart-renderer.js';
import { encodeOpaquePng } from './png.js';

/** The family the local renderer draws all text with; shipped as an npm package, so it exists on any host. */
export const CHART_FONT_FAMILY = 'DejaVu Sans';

let isChartSetUp = false;

/** Registers Chart.js parts and the bundled font once per process: a slim host may have no system fonts, and
 * Chart.js would then draw every label with a missing font, i.e. not at all. */
function setUpChartJs(): void {
	if (isChartSetUp) return;
	const require = createRequire(import.meta.url);
	for (const file of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
		const fontPath = require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
		if (!GlobalFonts.registerFromPath(fontPath, CHART_FONT_FAMILY)) throw new Error(`Could not load font ${file}`);
	}
	Chart.register(
		BarController,
		BarElement,
		LineController,
		LineElement,
		PointElement,
		CategoryScale,
		LinearScale,
		Title,
		Legend,
	);
	Chart.defaults.font.family = CHART_FONT_FAMILY;
	isChartSetUp = true;
}

/** Renders in-process with Chart.js on @napi-rs/canvas: no network, PNG bytes. */
export function createLocalRenderer(): ChartRenderer {
	setUpChartJs();
	return {
		name: 'local',
		render: (config, size, options) => renderLocally(config, size, options),
	};
}

async function renderLocally(
	config: ChartConfiguration,
	size: { width: number; height: number },
	options: ChartRenderOptions = {},
): Promise<Buffer> {
	const canvas = createCanvas(size.width, size.height);
	// Chart.js patches the data arrays it is given (listeners on push/splice); a copy keeps the caller's config pure.
	const ownConfig = structuredClone(config);
	ownConfig.options = { ...ownConfig.options, responsive: false, animation: false, devicePixelRatio: 1 };
	const chart = new Chart(canvas as unknown as ChartItem, ownConfig);
	try {
		if (options.background) {
			// Chart.js clears the canvas before drawing, so the background goes in behind what it drew.
			const context = canvas.getContext('2d');
			context.globalCompositeOperation = 'destination-over';
			context.fillStyle = options.background;
			context.fillRect(0, 0, size.width, size.height);
			context.globalCompositeOperation = 'source-over';
		}
		// Encode before destroy(): destroying the chart clears the canvas. Behind an opaque background every pixel is
		// opaque, so the faster RGB encoder applies; anything translucent keeps skia's RGBA encoder.
		const opaque = await encodeOpaquePng(canvas.data(), canvas.width, canvas.height);
		return opaque ?? (await canvas.encode('png'));
	} finally {
		chart.destroy();
	}
}
