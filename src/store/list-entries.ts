import type { Stores } from './open-stores.js';
import type { NamespaceName } from './namespaces.js';
import { expiryOf } from './raw-entry.js';
import type { RawEntry } from './raw-entry.js';

/**
 * Every live entry of a namespace on any backend, as stored (keys as Keyv callers use them, values
 * serialized). Entries whose Keyv expiry has passed are left out, as Keyv itself would not return them.
 */
export async function* listEntries(stores: Stores, name: NamespaceName, now = Date.now): AsyncGenerator<RawEntry> {
	for await (const entry of stores.backend.list(stores.namespace(name))) {
		const expires = expiryOf(entry.raw);
		if (expires === null || expires > now()) yield entry;
	}
}

/** How many live entries a namespace holds, optionally only those whose key `matches`. */
export async function countEntries(
	stores: Stores,
	name: NamespaceName,
	matches: (key: string) => boolean = () => true,
): Promise<number> {
	let count = 0;
	for await (const { key } of listEntries(stores, name)) if (matches(key)) count += 1;
	return count;
}
