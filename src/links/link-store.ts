import type Keyv from 'keyv';
import { z } from 'zod';
import { FeatureUnavailableError } from '../stats-api/errors.js';
import { deriveLinkKey, openApiKey, sealApiKey } from './crypto.js';
import type { LinkKey } from './crypto.js';
import { RelinkNeededError, StorageUnavailableError } from './errors.js';
import type { LinkedKey, LinkInfo, LinkStore } from './types.js';
import { validateApiKey } from './validate-key.js';

const RECORD_VERSION = 1;

/** Store keys, spelled once. They double as the AAD that binds a sealed key to its record. */
export const userLinkKey = (userId: string): string => `user:${userId}`;
export const serverLinkKey = (guildId: string): string => `guild:${guildId}`;

/**
 * What one link looks like in the store: plain JSON, epoch ms, a schema version. Only `sealedKey`
 * holds the API key, sealed (see crypto.ts for its byte layout); `kid` names the secret that sealed it.
 */
const recordSchema = z.object({
	v: z.literal(RECORD_VERSION),
	kid: z.string(),
	sealedKey: z.string(),
	keyHint: z.string(),
	accountName: z.string().nullable(),
	verified: z.boolean(),
	linkedAt: z.number(),
	linkedBy: z.string().nullable(),
});
type LinkRecord = z.infer<typeof recordSchema>;

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
	const current = deriveLinkKey(options.secret);
	const previous = options.previousSecret ? deriveLinkKey(options.previousSecret) : null;
	const now = options.now ?? Date.now;
	const { keyv } = options;

	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw new StorageUnavailableError({ cause: error });
		}
	};

	const readRecord = async (storeKey: string): Promise<LinkRecord | null> => {
		const raw: unknown = await storage(async () => keyv.get(storeKey));
		if (raw === undefined || raw === null) return null;
		const parsed = recordSchema.safeParse(raw);
		if (!parsed.success) throw new RelinkNeededError();
		return parsed.data;
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
		await storage(async () => keyv.set(storeKey, sealRecord(apiKey, info, current, storeKey)));
		return info;
	};

	/**
	 * Best-effort: if the rewrite fails, the previous secret still opens the record next time. The
	 * record is read again first so a link stored meanwhile (another shard) is not overwritten with
	 * the old key; Keyv offers no compare-and-set, so this narrows the window rather than closing it.
	 */
	const resealUnderCurrent = async (storeKey: string, record: LinkRecord, apiKey: string, info: LinkInfo) => {
		try {
			const latest = recordSchema.safeParse(await keyv.get(storeKey));
			if (!latest.success || latest.data.sealedKey !== record.sealedKey) return;
			await keyv.set(storeKey, sealRecord(apiKey, info, current, storeKey));
		} catch {
			// The old record stays readable with LINK_SECRET_PREVIOUS.
		}
	};

	const getKey = async (storeKey: string): Promise<LinkedKey | null> => {
		const record = await readRecord(storeKey);
		if (!record) return null;
		const linkKey = [current, previous].find((candidate) => candidate?.id === record.kid);
		if (!linkKey) throw new RelinkNeededError();
		const apiKey = openApiKey(record.sealedKey, linkKey, storeKey);
		const info = infoOf(record);
		if (linkKey !== current) await resealUnderCurrent(storeKey, record, apiKey, info);
		return { apiKey, info };
	};

	const getInfo = async (storeKey: string): Promise<LinkInfo | null> => {
		const record = await readRecord(storeKey);
		return record ? infoOf(record) : null;
	};

	const remove = async (storeKey: string): Promise<boolean> => storage(async () => keyv.delete(storeKey));

	return {
		linkUser: async (userId, rawKey) => link(userLinkKey(userId), rawKey, null),
		getUserKey: async (userId) => getKey(userLinkKey(userId)),
		getUserLink: async (userId) => getInfo(userLinkKey(userId)),
		removeUserLink: async (userId) => remove(userLinkKey(userId)),
		linkServer: async (guildId, rawKey, linkedBy) => link(serverLinkKey(guildId), rawKey, linkedBy),
		getServerKey: async (guildId) => getKey(serverLinkKey(guildId)),
		getServerLink: async (guildId) => getInfo(serverLinkKey(guildId)),
		removeServerLink: async (guildId) => remove(serverLinkKey(guildId)),
	};
}

function sealRecord(apiKey: string, info: LinkInfo, linkKey: LinkKey, storeKey: string): LinkRecord {
	return { v: RECORD_VERSION, kid: linkKey.id, sealedKey: sealApiKey(apiKey, linkKey, storeKey), ...info };
}

function infoOf(record: LinkRecord): LinkInfo {
	return {
		accountName: record.accountName,
		linkedAt: record.linkedAt,
		verified: record.verified,
		linkedBy: record.linkedBy,
		keyHint: record.keyHint,
	};
}
