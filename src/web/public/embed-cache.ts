/**
 * Bodies by ETag: an ETag names its bytes for good, so a body made once is the answer to every later request
 * with that ETag, and requests that arrive while it is being made wait for that one instead of making it again.
 * Bounded: past `maxEntries` the least recently used body is dropped (a PNG is 20-60 kB).
 */
export interface EmbedCache {
	get(etag: string, make: () => Promise<Buffer>): Promise<Buffer>;
	readonly size: number;
}

export function createEmbedCache(maxEntries: number): EmbedCache {
	const bodies = new Map<string, Buffer>();
	const making = new Map<string, Promise<Buffer>>();
	return {
		get size() {
			return bodies.size;
		},
		async get(etag, make) {
			const known = bodies.get(etag);
			if (known) {
				// Map order is the recency order: moved to the end.
				bodies.delete(etag);
				bodies.set(etag, known);
				return known;
			}
			const running = making.get(etag);
			if (running) return running;
			const made = make()
				.then((body) => {
					bodies.set(etag, body);
					if (bodies.size > maxEntries) bodies.delete(bodies.keys().next().value as string);
					return body;
				})
				.finally(() => making.delete(etag));
			making.set(etag, made);
			return made;
		},
	};
}
