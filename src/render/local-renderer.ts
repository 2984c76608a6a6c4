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
	SubTitle,
	Title,
} from 'chart.js';
import type { ChartConfiguration, ChartItem } from 'chart.js';
// The ESM build imports the same chart.js as above (one copy in node_modules: `npm ls chart.js`), so it registers
// on the Chart that draws.
import annotationPlugin from 'chartjs-plugin-annotation';
import type { ChartRenderer, ChartRenderOptions, ChartSize } from './chart-renderer.js';
import { encodeOpaquePng } from './png.js';

/** Latin, Cyrillic and Greek text; shipped as an npm package, so it exists on any host. */
export const LATIN_FONT_FAMILY = 'DejaVu Sans';
/** Japanese text. @napi-rs/canvas never falls back to another font by itself, so the family list must name it. */
export const JAPANESE_FONT_FAMILY = 'Noto Sans JP';
/** DejaVu first, so Latin keeps its look; glyphs DejaVu lacks come from Noto Sans JP. */
export const CHART_FONT_FAMILY = `'${LATIN_FONT_FAMILY}', '${JAPANESE_FONT_FAMILY}'`;

const FONT_FILES = [
	{ module: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', family: LATIN_FONT_FAMILY },
	{ module: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', family: LATIN_FONT_FAMILY },
	{ module: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf', family: JAPANESE_FONT_FAMILY },
] as const;

let isChartSetUp = false;

/** Registers the fonts and Chart.js parts once per thread: a slim host may have no system fonts, and Chart.js would
 * then draw every label with a missing font, i.e. not at all. Fonts are process-wide, so a second thread's
 * registration of the same file adds nothing. */
export function setUpChartJs(): void {
	if (isChartSetUp) return;
	const require = createRequire(import.meta.url);
	for (const font of FONT_FILES) {
		// registerFromPath answers null rather than throwing for a file it cannot read.
		if (!GlobalFonts.registerFromPath(require.resolve(font.module), font.family)) {
			throw new Error(`Could not load font ${font.module}`);
		}
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
		SubTitle,
		Legend,
		// Notes on days (src/notes): vertical lines with their text.
		annotationPlugin,
	);
	Chart.defaults.font.family = CHART_FONT_FAMILY;
	isChartSetUp = true;
}

/** Renders on the calling thread. The bot uses the worker pool instead; this one serves the pool's workers, the
 * tests and the benchmark's main-thread baseline. */
export function createLocalRenderer(): ChartRenderer {
	setUpChartJs();
	return {
		name: 'local',
		render: (config, size, options) => drawChartPng(config, size, options),
		close: async () => {},
	};
}

/** Draws one chart with Chart.js on @napi-rs/canvas and encodes it as PNG. */
export async function drawChartPng(
	config: ChartConfiguration,
	size: ChartSize,
	options: ChartRenderOptions = {},
): Promise<Buffer> {
	setUpChartJs();
	const canvas = createCanvas(size.width, size.height);
	// Chart.js patches the data arrays it is given (listeners on push/splice); a copy keeps the caller's config pure.
	const ownConfig = structuredClone(config);
	ownConfig.options = { ...ownConfig.options, responsive: false, animation: false, devicePixelRatio: 1 };
	// Chart.js keeps every chart in a static registry until destroy(), so destroy runs whatever happens below.
	let chart: Chart | undefined;
	try {
		chart = new Chart(canvas as unknown as ChartItem, ownConfig);
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
		chart?.destroy();
	}
}
