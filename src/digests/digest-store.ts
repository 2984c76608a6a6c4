import type Keyv from 'keyv';
import type { Config } from '../config.js';
import { storeSchemeOf } from '../store-url.js';
import type { Coordinator } from '../core/claims.js';
import { listEntries } from '../store/list-entries.js';
import { claimLock, createKeyedMutex, type WithLock } from '../core/claims.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { asStorageUnavailable } from '../store/with-deadline.js';
import { DIGEST_PREFIX, digestKey, parseDigestRecord, type DigestRecord } from './digest-record.js';

/**
 * The digests, one per member, kept in the `watch` namespace beside the other scheduled records
 * (`digest:<user>`): never keyed by the API key, so a relink keeps the member's digest.
 */
export interface DigestStore {
	get(userId: string): Promise<DigestRecord | null>;
	/** Every member's digest, read one at a time. */
	listAll(): AsyncGenerator<DigestRecord>;
	/**
	 * Reads the digest, lets `change` return its next version (undefined leaves it) and writes it, under a lock
	 * every process on the store shares. Returns what is stored afterwards.
	 */
	update(
		userId: string,
		change: (record: DigestRecord | null) => DigestRecord | undefined,
	): Promise<DigestRecord | null>;
}

export type DigestStoreContext = {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
};

export function createDigestStore(stores: DigestStoreContext['stores'], lock: WithLock): DigestStore {
	const keyv: Keyv = stores.watch;
	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw asStorageUnavailable(error);
		}
	};
	const read = async (key: string) => parseDigestRecord(await storage(async () => keyv.get(key)));
	return {
		get: async (userId) => read(digestKey(userId)),
		async *listAll() {
			// Redis SCAN may repeat a key while the store changes.
			const seen = new Set<string>();
			for await (const { key } of listEntries(stores as Stores, WATCH_NAMESPACE)) {
				if (!key.startsWith(DIGEST_PREFIX) || seen.has(key)) continue;
				seen.add(key);
				const record = await read(key);
				if (record) yield record;
			}
		},
		update: async (userId, change) => {
			const key = digestKey(userId);
			return lock(key, async () => {
				const current = await read(key);
				const next = change(current);
				if (next === undefined) return current;
				await storage(async () => keyv.set(key, next));
				return next;
			});
		},
	};
}

/** One digest store per opened store, so every command and the digest job of a process share its locks. */
const digestStores = new WeakMap<object, DigestStore>();

export function digestStoreOf(ctx: DigestStoreContext): DigestStore {
	let store = digestStores.get(ctx.stores);
	if (!store) {
		// One process owns a SQLite file: an in-process lock is exact there (as for the watch store).
		const shared = storeSchemeOf(ctx.config.storeUrl) !== 'sqlite';
		store = createDigestStore(ctx.stores, shared ? claimLock(ctx.coordinator) : createKeyedMutex());
		digestStores.set(ctx.stores, store);
	}
	return store;
}
