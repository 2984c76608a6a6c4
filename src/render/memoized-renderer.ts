import { createHash } from 'node:crypto';
import type { ChartRenderer } from './chart-renderer.js';

/**
 * Remembers the last PNGs a renderer drew. A cached snapshot gives the same chart config, so
 * repeated /stats, the Share button and shards of a busy server reuse the image instead of
 * drawing it again (10+ ms locally, a network call for QuickChart).
 */
export function memoizeRenderer(renderer: ChartRenderer, maxEntries = 64): ChartRenderer {
	const pngs = new Map<string, Buffer>();
	return {
		name: renderer.name,
		async render(config, size, options) {
			const key = createHash('sha256')
				.update(JSON.stringify([config, size, options ?? null]))
				.digest('base64url');
			const known = pngs.get(key);
			if (known) {
				pngs.delete(key); // re-inserted below: Map order is the recency order
				pngs.set(key, known);
				return known;
			}
			const png = await renderer.render(config, size, options);
			if (png) {
				pngs.set(key, png);
				if (pngs.size > maxEntries) pngs.delete(pngs.keys().next().value as string);
			}
			return png;
		},
	};
}
