import { createRecordStore, onePerStore, recordLock, type RecordLockContext } from '../core/record-store.js';
import type { WithLock } from '../core/claims.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
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

export type DigestStoreContext = RecordLockContext & {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
};

export function createDigestStore(stores: DigestStoreContext['stores'], lock: WithLock): DigestStore {
	const records = createRecordStore(stores, lock, { namespace: WATCH_NAMESPACE, parse: parseDigestRecord });
	return {
		get: async (userId) => records.get(digestKey(userId)),
		listAll: () => records.list(DIGEST_PREFIX),
		update: async (userId, change) => records.update(digestKey(userId), change),
	};
}

/** One digest store per opened store, so every command and the digest job of a process share its locks. */
export const digestStoreOf = onePerStore((ctx: DigestStoreContext): DigestStore =>
	createDigestStore(ctx.stores, recordLock(ctx)),
);
