import { createHash } from 'node:crypto';
import type { ChartConfiguration } from 'chart.js';
import type { ChartRenderer, ChartRenderOptions, ChartSize } from './chart-renderer.js';

/**
 * Remembers the last PNGs a renderer drew, and joins a render to an identical one still running. A cached snapshot
 * gives the same chart config, so repeated /stats, the Share button, shards of a busy server and a burst of clicks
 * on one account reuse one image instead of drawing it again (10+ ms of CPU locally, a network call for QuickChart).
 */
export function memoizeRenderer(renderer: ChartRenderer, maxEntries = 64): ChartRenderer {
	const pngs = new Map<string, Buffer>();
	const inFlight = new Map<string, Promise<Buffer | null>>();
	return {
		name: renderer.name,
		async render(config, size, options) {
			const key = keyOf(config, size, options);
			const known = pngs.get(key);
			if (known) {
				pngs.delete(key); // re-inserted below: Map order is the recency order
				pngs.set(key, known);
				return known;
			}
			const running = inFlight.get(key);
			if (running) return running;
			const rendering = renderer
				.render(config, size, options)
				.then((png) => {
					if (png) {
						pngs.set(key, png);
						if (pngs.size > maxEntries) pngs.delete(pngs.keys().next().value as string);
					}
					return png;
				})
				.finally(() => inFlight.delete(key));
			inFlight.set(key, rendering);
			return rendering;
		},
		// Straight to the renderer: a warm-up chart is nobody's, and must not take a place in the memo.
		warmUp: renderer.warmUp ? () => renderer.warmUp!() : undefined,
		close: () => renderer.close(),
	};
}

/**
 * The memo key of each config object asked for: a repeated request passes the same config (built once per chart
 * input), which would otherwise be serialised and hashed again for every reuse. Nothing below the memo changes a
 * config (the pool clones it to a worker, QuickChart serialises it).
 */
const configKeys = new WeakMap<object, { sizeAndOptions: string; key: string }>();

function keyOf(config: ChartConfiguration, size: ChartSize, options: ChartRenderOptions | undefined): string {
	const sizeAndOptions = JSON.stringify([size, options ?? null]);
	const known = configKeys.get(config);
	if (known?.sizeAndOptions === sizeAndOptions) return known.key;
	const key = createHash('sha256')
		.update(JSON.stringify([config, size, options ?? null]))
		.digest('base64url');
	configKeys.set(config, { sizeAndOptions, key });
	return key;
}
