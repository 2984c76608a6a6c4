import type { Stores } from '../store/open-stores.js';
import { linkKeys } from './link-entries.js';
import { isReadable, parseRecord } from './link-record.js';
import type { LinkKeyring } from './link-record.js';

export interface CheckResult {
	readable: number;
	/** Store keys of the records no configured secret opens (or that are no link record at all). */
	unreadable: string[];
}

/** Opens every link with the configured secrets; never returns or logs what a record holds. */
export async function checkLinks(stores: Stores, keyring: LinkKeyring): Promise<CheckResult> {
	const result: CheckResult = { readable: 0, unreadable: [] };
	for await (const storeKey of linkKeys(stores)) {
		const value: unknown = await stores.links.get(storeKey);
		// Deleted since it was listed: nothing to check.
		if (value === undefined) continue;
		const record = parseRecord(value);
		if (record && isReadable(record, keyring, storeKey)) result.readable += 1;
		else result.unreadable.push(storeKey);
	}
	return result;
}
