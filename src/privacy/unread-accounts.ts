import { kindOf, storedValue } from '../core/record-kinds.js';
import { historyAccountId } from '../history/account-id.js';
import { listEntries } from '../store/list-entries.js';
import { LINKS_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';

/**
 * The history account a link reads (`user:<id>` or `guild:<id>`), by its id and name, when no other link reads that
 * account: its history goes with the link. One walk of the links, holding only that account, never every link's.
 */
export async function accountOnlyReadBy(stores: Stores, linkKey: string): Promise<Map<string, string>> {
	const { accountName } = ((await stores.links.get(linkKey)) ?? {}) as { accountName?: unknown };
	if (typeof accountName !== 'string') return new Map();
	const accountId = historyAccountId(accountName);
	for await (const { key, raw } of listEntries(stores, LINKS_NAMESPACE)) {
		if (key === linkKey) continue;
		const kind = kindOf(LINKS_NAMESPACE, key);
		if (kind?.owners(key, storedValue(raw)).accounts.includes(accountId)) return new Map();
	}
	return new Map([[accountId, accountName]]);
}
