import type Keyv from 'keyv';
import { parseRecord, sealRecord, infoOf } from './link-record.js';
import type { LinkKeyring, LinkRecord } from './link-record.js';

/**
 * Rewrites `record` sealed under LINK_SECRET, unless the stored record changed since it was read: it
 * is read again first, so a link stored meanwhile (by the bot, another shard) is not overwritten with
 * the old key. Keyv offers no compare-and-set, so this narrows the window rather than closing it.
 * Returns false when the record changed (nothing written).
 */
export async function resealIfUnchanged(
	keyv: Keyv,
	storeKey: string,
	record: LinkRecord,
	apiKey: string,
	keyring: LinkKeyring,
): Promise<boolean> {
	const latest = parseRecord(await keyv.get(storeKey));
	if (!latest || latest.sealedKey !== record.sealedKey) return false;
	await keyv.set(storeKey, sealRecord(apiKey, infoOf(record), keyring.current, storeKey));
	return true;
}
