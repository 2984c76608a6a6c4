import { listEntries } from '../store/list-entries.js';
import type { Stores } from '../store/open-stores.js';
import { countRecords, DATA_KIND_NAMESPACES } from './count-records.js';
import type { KindCount } from './count-records.js';
import { kindOf } from './record-kinds.js';

export interface MigrateResult {
	/** Entries written to the target (a repeat run writes them again, unchanged). */
	copied: number;
	/** Of those, entries no registered kind claims, copied as they are so that nothing is lost. */
	unregistered: number;
	/** Live entries per data kind (and of no kind), in each store, after the copy. */
	source: KindCount[];
	target: KindCount[];
	/** True when the target holds as many entries as the source of every data kind that does not expire. */
	matches: boolean;
}

/**
 * Copies every data record (src/core/record-kinds.ts) verbatim, value as stored and expiry kept, from `source` to
 * `target`, and every entry of those namespaces that no kind claims; transient kinds (the stats cache, login states,
 * rename budgets) are left behind, and claims, cooldowns and the REST budget live outside these namespaces. Only the
 * target is written, each entry under its own key, so a repeat run duplicates nothing and an interrupted one is
 * finished by running it again.
 */
export async function migrateRecords(
	source: Stores,
	target: Stores,
	progress: (copied: number) => void = () => undefined,
): Promise<MigrateResult> {
	let copied = 0;
	let unregistered = 0;
	for (const namespace of DATA_KIND_NAMESPACES) {
		for await (const entry of listEntries(source, namespace)) {
			const kind = kindOf(namespace, entry.key);
			if (kind?.keeping === 'transient') continue;
			await target.backend.writeRaw(target.namespace(namespace), entry);
			copied += 1;
			if (!kind) unregistered += 1;
			progress(copied);
		}
	}
	const sourceCounts = await countRecords(source);
	const targetCounts = await countRecords(target);
	// Sessions expire on their own, so their number may change between the two counts.
	const matches = sourceCounts.every(
		({ kind, count }, index) => kind?.expires === true || targetCounts[index]?.count === count,
	);
	return { copied, unregistered, source: sourceCounts, target: targetCounts, matches };
}
