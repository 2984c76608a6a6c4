import type { WithLock } from '../store/locks.js';
import { onePerOpenedStore, watchRecords, type WatchStoreContext, type WatchStores } from '../watch/watch-records.js';
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

export type DigestStoreContext = WatchStoreContext;

export function createDigestStore(stores: WatchStores, lock: WithLock): DigestStore {
	const records = watchRecords(stores, lock, parseDigestRecord);
	return {
		get: async (userId) => records.read(digestKey(userId)),
		listAll: () => records.walk(DIGEST_PREFIX),
		update: async (userId, change) => records.update(digestKey(userId), change),
	};
}

/** One digest store per opened store, so every command and the digest job of a process share its locks. */
const digestStores = onePerOpenedStore(createDigestStore);

export function digestStoreOf(ctx: DigestStoreContext): DigestStore {
	return digestStores(ctx);
}
