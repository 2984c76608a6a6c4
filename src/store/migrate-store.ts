import { countEntries, listEntries } from './list-entries.js';
import { DATA_NAMESPACES, WEB_NAMESPACE } from './namespaces.js';
import type { DataNamespaceName } from './namespaces.js';
import type { Stores } from './open-stores.js';

export interface MigrateResult {
	/** Entries written to the target (a repeat run writes them again, unchanged). */
	copied: number;
	/** Live entries per migrated namespace, in each store, after the copy. */
	source: Record<DataNamespaceName, number>;
	target: Record<DataNamespaceName, number>;
	/** True when the target holds as many entries as the source in every migrated namespace. */
	matches: boolean;
}

/**
 * Copied as well, but not counted: the dashboard's public links must survive a move, while its sessions and login
 * states (copied with them, expiry kept) expire on their own, so their number may change between the two counts.
 */
const ALSO_COPIED = [WEB_NAMESPACE] as const;

/**
 * Copies links, history, reports, settings, watch (stat channels, alerts) and the dashboard's entries verbatim
 * (values as stored, expiry kept) from `source` to `target`; the cache is left behind, it refills. Only the target
 * is written, each entry under its own key, so a repeat run duplicates nothing and an interrupted one is finished
 * by running it again.
 */
export async function migrateStore(
	source: Stores,
	target: Stores,
	progress: (copied: number) => void = () => undefined,
): Promise<MigrateResult> {
	let copied = 0;
	for (const name of [...DATA_NAMESPACES, ...ALSO_COPIED]) {
		for await (const entry of listEntries(source, name)) {
			await target.backend.writeRaw(target.namespace(name), entry);
			copied += 1;
			progress(copied);
		}
	}
	const sourceCounts = await countAll(source);
	const targetCounts = await countAll(target);
	return {
		copied,
		source: sourceCounts,
		target: targetCounts,
		matches: DATA_NAMESPACES.every((name) => sourceCounts[name] === targetCounts[name]),
	};
}

async function countAll(stores: Stores): Promise<Record<DataNamespaceName, number>> {
	const counts = {} as Record<DataNamespaceName, number>;
	for (const name of DATA_NAMESPACES) counts[name] = await countEntries(stores, name);
	return counts;
}
