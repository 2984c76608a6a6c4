import { createHmac, hkdfSync } from 'node:crypto';
import type Keyv from 'keyv';
import type { StatsSnapshot } from './snapshot.js';

/** How long a snapshot may stand in for an unreachable endpoint; entries live this long in the store. */
export const STALE_WINDOW_MS = 60 * 60 * 1000;
const CACHE_SCHEMA_VERSION = 1;
const HKDF_LABEL = 'stats-cache';

/** What the cache stores: plain JSON, epoch ms, a schema version; never the key. */
interface CacheEntry {
	v: typeof CACHE_SCHEMA_VERSION;
	fetchedAt: number;
	snapshot: StatsSnapshot;
}

export interface CachedSnapshot {
	snapshot: StatsSnapshot;
	fetchedAt: number;
}

/**
 * Snapshots in a Keyv namespace, keyed by HMAC-SHA256 of the API key under a key derived from
 * `secret` (LINK_SECRET), so the store never sees a key and shards sharing a store share entries.
 * Storage failures read as a miss and writes are best-effort: the cache must never break /stats.
 */
export class SnapshotCache {
	readonly #keyv: Keyv;
	readonly #hmacKey: Buffer;

	constructor(keyv: Keyv, secret: Buffer) {
		this.#keyv = keyv;
		this.#hmacKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), HKDF_LABEL, 32));
	}

	/** The store key for an API key (hex HMAC). */
	keyFor(apiKey: string): string {
		return createHmac('sha256', this.#hmacKey).update(apiKey, 'utf8').digest('hex');
	}

	async read(cacheKey: string): Promise<CachedSnapshot | null> {
		let entry: unknown;
		try {
			entry = await this.#keyv.get(cacheKey);
		} catch {
			return null;
		}
		if (!isCacheEntry(entry)) return null;
		return { snapshot: entry.snapshot, fetchedAt: entry.fetchedAt };
	}

	async write(cacheKey: string, value: CachedSnapshot): Promise<void> {
		const entry: CacheEntry = { v: CACHE_SCHEMA_VERSION, fetchedAt: value.fetchedAt, snapshot: value.snapshot };
		try {
			await this.#keyv.set(cacheKey, entry, STALE_WINDOW_MS);
		} catch {
			// Best-effort: the snapshot is already in hand; the next call simply misses.
		}
	}
}

function isCacheEntry(value: unknown): value is CacheEntry {
	if (typeof value !== 'object' || value === null) return false;
	const entry = value as Partial<CacheEntry>;
	return (
		entry.v === CACHE_SCHEMA_VERSION &&
		typeof entry.fetchedAt === 'number' &&
		typeof entry.snapshot === 'object' &&
		entry.snapshot !== null &&
		Array.isArray(entry.snapshot.sends?.dailyBreakdown)
	);
}
