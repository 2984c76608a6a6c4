import type { z } from 'zod';
import { zod } from '../lazy-packages.js';
import { deriveLinkKey, openApiKey, sealApiKey } from './crypto.js';
import type { LinkKey } from './crypto.js';
import { RelinkNeededError } from '../errors.js';
import type { LinkInfo } from './link-model.js';

const RECORD_VERSION = 1;

/**
 * What one link looks like in the store: plain JSON, epoch ms, a schema version. Only `sealedKey`
 * holds the API key, sealed (see crypto.ts for its byte layout); `kid` names the secret that sealed it.
 */
function buildRecordSchema() {
	const { z } = zod();
	return z.object({
		v: z.literal(RECORD_VERSION),
		kid: z.string(),
		sealedKey: z.string(),
		keyHint: z.string(),
		accountName: z.string().nullable(),
		verified: z.boolean(),
		linkedAt: z.number(),
		linkedBy: z.string().nullable(),
	});
}
let recordSchema: ReturnType<typeof buildRecordSchema> | undefined;
export type LinkRecord = z.infer<ReturnType<typeof buildRecordSchema>>;

/** The stored value as a record, or null when it is not one (written by something else, or damaged). */
export function parseRecord(value: unknown): LinkRecord | null {
	recordSchema ??= buildRecordSchema();
	const parsed = recordSchema.safeParse(value);
	return parsed.success ? parsed.data : null;
}

/** LINK_SECRET and LINK_SECRET_PREVIOUS, derived once. */
export interface LinkKeyring {
	current: LinkKey;
	previous: LinkKey | null;
}

export function createKeyring(secret: Buffer, previousSecret?: Buffer | null): LinkKeyring {
	return { current: deriveLinkKey(secret), previous: previousSecret ? deriveLinkKey(previousSecret) : null };
}

export interface OpenedRecord {
	apiKey: string;
	/** False when only LINK_SECRET_PREVIOUS opens it: the record should be resealed. */
	current: boolean;
}

/** Opens a record with whichever configured secret sealed it; throws RelinkNeededError when none does. */
export function openRecord(record: LinkRecord, keyring: LinkKeyring, storeKey: string): OpenedRecord {
	const linkKey = [keyring.current, keyring.previous].find((candidate) => candidate?.id === record.kid);
	if (!linkKey) throw new RelinkNeededError();
	return { apiKey: openApiKey(record.sealedKey, linkKey, storeKey), current: linkKey === keyring.current };
}

/** True when a configured secret opens the record. */
export function isReadable(record: LinkRecord, keyring: LinkKeyring, storeKey: string): boolean {
	try {
		openRecord(record, keyring, storeKey);
		return true;
	} catch {
		return false;
	}
}

export function sealRecord(apiKey: string, info: LinkInfo, linkKey: LinkKey, storeKey: string): LinkRecord {
	return { v: RECORD_VERSION, kid: linkKey.id, sealedKey: sealApiKey(apiKey, linkKey, storeKey), ...info };
}

export function infoOf(record: LinkRecord): LinkInfo {
	return {
		accountName: record.accountName,
		linkedAt: record.linkedAt,
		verified: record.verified,
		linkedBy: record.linkedBy,
		keyHint: record.keyHint,
	};
}
