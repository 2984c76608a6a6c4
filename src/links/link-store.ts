import type Keyv from 'keyv';
import type { StatsClient } from '../stats-api/client.js';
import { FeatureUnavailableError } from '../errors.js';
import { RelinkNeededError } from '../errors.js';
import { serverLinkKey, userLinkKey } from './link-keys.js';
import { createKeyring, infoOf, isReadable, openRecord, parseRecord, sealRecord } from './link-record.js';
import type { LinkRecord } from './link-record.js';
import { resealIfUnchanged } from './reseal-record.js';
import type { LinkedKey, LinkInfo, LinkStatus, LinkStore } from './link-model.js';
import { validateApiKey } from './validate-key.js';
import { asStorageUnavailable } from '../store/with-deadline.js';

export interface LinkStoreOptions {
	/** Keyv on the `links` namespace (see openStores). */
	keyv: Keyv;
	/** LINK_SECRET (32 bytes). */
	secret: Buffer;
	/** LINK_SECRET_PREVIOUS: opens records sealed before a rotation; they are resealed on read. */
	previousSecret?: Buffer | null;
	/**
	 * One stats call for the key; returns `meta.user`. A FeatureUnavailableError from it is mapped
	 * here (the link is stored unverified); any other error propagates and nothing is stored.
	 */
	verifyKey: (apiKey: string) => Promise<{ accountName: string | null }>;
	now?: () => number;
	/**
	 * Records read or written are kept this long (ms) and read from memory meanwhile: for a store only this process
	 * writes (SQLite), where every `/stats` would read its member's link again. They stay sealed in memory. Writes
	 * through this store replace or drop them at once; a change from outside (`npm run links`) shows within the time.
	 * Absent: every read goes to the store, as processes sharing one need.
	 */
	recordCacheMs?: number;
}

/** Records kept at most by the cache, oldest dropped first: about 1 KiB each. */
const MAX_CACHED_RECORDS = 10_000;

export function createLinkStore(options: LinkStoreOptions): LinkStore {
	const keyring = createKeyring(options.secret, options.previousSecret);
	const now = options.now ?? Date.now;
	const { keyv } = options;

	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw asStorageUnavailable(error);
		}
	};

	const cache = createRecordCache(options.recordCacheMs ?? 0, now);

	const readRecord = async (storeKey: string): Promise<LinkRecord | null> => {
		const kept = cache.get(storeKey);
		if (kept !== undefined) return kept;
		const readSince = cache.writes;
		const raw: unknown = await storage(async () => keyv.get(storeKey));
		let record: LinkRecord | null = null;
		if (raw !== undefined && raw !== null) {
			record = parseRecord(raw);
			if (!record) throw new RelinkNeededError();
		}
		// A write that landed while this read was out may have made its answer old: it is used, not kept.
		if (cache.writes === readSince) cache.set(storeKey, record);
		return record;
	};
	const write = async <T>(storeKey: string, operation: () => Promise<T>): Promise<T> => {
		cache.forget(storeKey);
		try {
			return await storage(operation);
		} finally {
			cache.forget(storeKey);
		}
	};

	const link = async (storeKey: string, rawKey: string, linkedBy: string | null): Promise<LinkInfo> => {
		const apiKey = validateApiKey(rawKey);
		let accountName: string | null = null;
		let verified = true;
		try {
			({ accountName } = await options.verifyKey(apiKey));
		} catch (error) {
			if (!(error instanceof FeatureUnavailableError)) throw error;
			verified = false;
		}
		const info: LinkInfo = { accountName, linkedAt: now(), verified, linkedBy, keyHint: apiKey.slice(-4) };
		await write(storeKey, async () => keyv.set(storeKey, sealRecord(apiKey, info, keyring.current, storeKey)));
		return info;
	};

	const getKey = async (storeKey: string): Promise<LinkedKey | null> => {
		const record = await readRecord(storeKey);
		if (!record) return null;
		const { apiKey, current } = openRecord(record, keyring, storeKey);
		// Best-effort: if the rewrite fails, the previous secret still opens the record next time.
		if (!current)
			await write(storeKey, async () => resealIfUnchanged(keyv, storeKey, record, apiKey, keyring)).catch(() => false);
		return { apiKey, info: infoOf(record) };
	};

	const getStatus = async (storeKey: string): Promise<LinkStatus | null> => {
		const record = await readRecord(storeKey);
		return record ? { ...infoOf(record), readable: isReadable(record, keyring, storeKey) } : null;
	};

	const remove = async (storeKey: string): Promise<boolean> => write(storeKey, async () => keyv.delete(storeKey));

	return {
		linkUser: async (userId, rawKey) => link(userLinkKey(userId), rawKey, null),
		getUserKey: async (userId) => getKey(userLinkKey(userId)),
		getUserLink: async (userId) => getStatus(userLinkKey(userId)),
		removeUserLink: async (userId) => remove(userLinkKey(userId)),
		linkServer: async (guildId, rawKey, linkedBy) => link(serverLinkKey(guildId), rawKey, linkedBy),
		getServerKey: async (guildId) => getKey(serverLinkKey(guildId)),
		getServerLink: async (guildId) => getStatus(serverLinkKey(guildId)),
		removeServerLink: async (guildId) => remove(serverLinkKey(guildId)),
		dropKept: (storeKey) => cache.forget(storeKey),
	};
}

/** Parsed records by store key (null: no link), each with when it was kept; `writes` counts the writes begun. */
function createRecordCache(ttlMs: number, now: () => number) {
	const kept = new Map<string, { record: LinkRecord | null; at: number }>();
	return {
		writes: 0,
		get(storeKey: string): LinkRecord | null | undefined {
			const entry = kept.get(storeKey);
			if (!entry) return undefined;
			if (now() - entry.at < ttlMs) return entry.record;
			kept.delete(storeKey);
			return undefined;
		},
		set(storeKey: string, record: LinkRecord | null): void {
			if (ttlMs <= 0) return;
			kept.delete(storeKey);
			kept.set(storeKey, { record, at: now() });
			if (kept.size > MAX_CACHED_RECORDS) kept.delete(kept.keys().next().value as string);
		},
		forget(storeKey: string): void {
			this.writes += 1;
			kept.delete(storeKey);
		},
	};
}

/** The `verifyKey` that createLinkStore expects, backed by the stats client (meta.user → account name). */
export function verifyWithStats(stats: Pick<StatsClient, 'verifyKey'>) {
	return async (apiKey: string): Promise<{ accountName: string | null }> => ({
		accountName: (await stats.verifyKey(apiKey)).meta.user,
	});
}
