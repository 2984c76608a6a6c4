import type { Stores } from '../store/open-stores.js';
import { linkKeys } from './link-entries.js';
import { openRecord, parseRecord } from './link-record.js';
import type { LinkKeyring } from './link-record.js';
import { resealIfUnchanged } from './reseal-record.js';

export interface ResealCounts {
	resealed: number;
	alreadyCurrent: number;
	unreadable: number;
}

/** Tries before giving a record up as changing under us (a bot rewriting it each time it is read). */
const ATTEMPTS = 3;

/**
 * Re-encrypts every link under LINK_SECRET. Each record is written on its own, read again right
 * before, so a run can stop anywhere and start again (what is current is skipped) and the bot can
 * keep running. `progress` receives the number of records handled so far, never a key.
 */
export async function resealLinks(
	stores: Stores,
	keyring: LinkKeyring,
	progress: (handled: number) => void = () => undefined,
): Promise<ResealCounts> {
	const counts: ResealCounts = { resealed: 0, alreadyCurrent: 0, unreadable: 0 };
	let handled = 0;
	for await (const storeKey of linkKeys(stores)) {
		const outcome = await resealOne(stores, keyring, storeKey);
		if (outcome) counts[outcome] += 1;
		handled += 1;
		progress(handled);
	}
	return counts;
}

async function resealOne(stores: Stores, keyring: LinkKeyring, storeKey: string): Promise<keyof ResealCounts | null> {
	for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
		const value: unknown = await stores.links.get(storeKey);
		if (value === undefined) return null;
		const record = parseRecord(value);
		if (!record) return 'unreadable';
		let opened;
		try {
			opened = openRecord(record, keyring, storeKey);
		} catch {
			return 'unreadable';
		}
		if (opened.current) return 'alreadyCurrent';
		if (await resealIfUnchanged(stores.links, storeKey, record, opened.apiKey, keyring)) return 'resealed';
	}
	// Rewritten by someone else every time: whoever rewrote it sealed it under their current secret.
	return 'alreadyCurrent';
}
