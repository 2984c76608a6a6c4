// One walk over every Keyv namespace that holds a registered kind, each entry with its kind and owners: what show,
// export, forget, purge and backup read, so that a kind registered in src/core/record-kinds.ts is covered by all.
import type Keyv from 'keyv';
import { KEYV_NAMESPACES_OF_KINDS, kindOf, storedValue } from '../core/record-kinds.js';
import type { RecordKind, RecordOwners } from '../core/record-kinds.js';
import { listEntries } from '../store/list-entries.js';
import type { NamespaceName } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';

export interface StoredRecord {
	namespace: NamespaceName;
	kind: RecordKind;
	key: string;
	/** The entry as the backend holds it (Keyv's serialized `{ value, expires }`). */
	raw: string;
	value: unknown;
	owners: RecordOwners;
}

/**
 * Every live entry of a registered kind, read one at a time; entries of no kind are left alone. Redis SCAN may
 * repeat a key while the store changes: `once` drops repeats at the cost of every key in memory, which a walk
 * whose every step is idempotent (a forget, a purge) goes without.
 */
export async function* storedRecords(stores: Stores, options: { once: boolean }): AsyncGenerator<StoredRecord> {
	for (const namespace of KEYV_NAMESPACES_OF_KINDS) {
		const seen = options.once ? new Set<string>() : null;
		for await (const { key, raw } of listEntries(stores, namespace)) {
			const kind = kindOf(namespace, key);
			if (!kind || seen?.has(key)) continue;
			seen?.add(key);
			const value = storedValue(raw);
			yield { namespace, kind, key, raw, value, owners: kind.owners(key, value) };
		}
	}
}

/** The Keyv of a namespace. */
export function keyvOf(stores: Stores, namespace: NamespaceName): Keyv {
	switch (namespace) {
		case 'stats-cache':
			return stores.cache;
		default:
			return stores[namespace];
	}
}
