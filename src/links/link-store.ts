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
}

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

	const readRecord = async (storeKey: string): Promise<LinkRecord | null> => {
		const raw: unknown = await storage(async () => keyv.get(storeKey));
		if (raw === undefined || raw === null) return null;
		const record = parseRecord(raw);
		if (!record) throw new RelinkNeededError();
		return record;
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
		await storage(async () => keyv.set(storeKey, sealRecord(apiKey, info, keyring.current, storeKey)));
		return info;
	};

	const getKey = async (storeKey: string): Promise<LinkedKey | null> => {
		const record = await readRecord(storeKey);
		if (!record) return null;
		const { apiKey, current } = openRecord(record, keyring, storeKey);
		// Best-effort: if the rewrite fails, the previous secret still opens the record next time.
		if (!current) await resealIfUnchanged(keyv, storeKey, record, apiKey, keyring).catch(() => false);
		return { apiKey, info: infoOf(record) };
	};

	const getStatus = async (storeKey: string): Promise<LinkStatus | null> => {
		const record = await readRecord(storeKey);
		return record ? { ...infoOf(record), readable: isReadable(record, keyring, storeKey) } : null;
	};

	const remove = async (storeKey: string): Promise<boolean> => storage(async () => keyv.delete(storeKey));

	return {
		linkUser: async (userId, rawKey) => link(userLinkKey(userId), rawKey, null),
		getUserKey: async (userId) => getKey(userLinkKey(userId)),
		getUserLink: async (userId) => getStatus(userLinkKey(userId)),
		removeUserLink: async (userId) => remove(userLinkKey(userId)),
		linkServer: async (guildId, rawKey, linkedBy) => link(serverLinkKey(guildId), rawKey, linkedBy),
		getServerKey: async (guildId) => getKey(serverLinkKey(guildId)),
		getServerLink: async (guildId) => getStatus(serverLinkKey(guildId)),
		removeServerLink: async (guildId) => remove(serverLinkKey(guildId)),
	};
}

/** The `verifyKey` that createLinkStore expects, backed by the stats client (meta.user → account name). */
export function verifyWithStats(stats: Pick<StatsClient, 'verifyKey'>) {
	return async (apiKey: string): Promise<{ accountName: string | null }> => ({
		accountName: (await stats.verifyKey(apiKey)).meta.user,
	});
}
