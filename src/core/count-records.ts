import { listEntries } from '../store/list-entries.js';
import type { Stores } from '../store/open-stores.js';
import { KEYV_NAMESPACES_OF_KINDS, RECORD_KINDS, kindOf } from './record-kinds.js';
import type { RecordKind } from './record-kinds.js';

export type CountLine = [name: string, value: number];

/** The figure of the entries no registered kind (or more than one) claims, in the namespaces that hold data. */
export const UNREGISTERED_LABEL = 'unregistered';

/** Live entries of one data kind, or of no kind (`kind` null). */
export interface KindCount {
	kind: RecordKind | null;
	count: number;
}

/** The data kinds, in the registry's order: what `links count` prints and `links migrate` copies. */
export const DATA_KINDS = RECORD_KINDS.filter((kind) => kind.keeping === 'data');

/** The Keyv namespaces holding a data kind; the others (the stats cache) hold transient kinds only. */
export const DATA_KIND_NAMESPACES = KEYV_NAMESPACES_OF_KINDS.filter((namespace) =>
	DATA_KINDS.some((kind) => kind.namespace === namespace),
);

/** One walk over each namespace holding data: live entries per data kind, then those of no kind. */
export async function countRecords(stores: Stores): Promise<KindCount[]> {
	const counts = new Map<RecordKind | null, number>([...DATA_KINDS, null].map((kind) => [kind, 0]));
	for (const namespace of DATA_KIND_NAMESPACES) {
		for await (const { key } of listEntries(stores, namespace)) {
			const kind = kindOf(namespace, key);
			if (kind?.keeping === 'transient') continue;
			counts.set(kind, (counts.get(kind) ?? 0) + 1);
		}
	}
	return [...counts].map(([kind, count]) => ({ kind, count }));
}

/** The figures `links count` prints, in its order: one line per data kind, then `unregistered`. */
export async function countFigures(stores: Stores): Promise<CountLine[]> {
	return figuresOf(await countRecords(stores));
}

export function figuresOf(counts: KindCount[]): CountLine[] {
	return counts.map(({ kind, count }) => [kind?.label ?? UNREGISTERED_LABEL, count]);
}
