import { listEntries } from '../store/list-entries.js';
import { LINKS_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';

/**
 * The store key of every link, each once: Redis SCAN may return a key twice while the store changes,
 * and a record rewritten during the walk must not be counted twice.
 */
export async function* linkKeys(stores: Stores): AsyncGenerator<string> {
	const seen = new Set<string>();
	for await (const { key } of listEntries(stores, LINKS_NAMESPACE)) {
		if (seen.has(key)) continue;
		seen.add(key);
		yield key;
	}
}
