import { SERVER_LEFT_PREFIX } from '../core/record-kinds.js';
import { createRecordStore, onePerStore, recordLock } from '../core/record-store.js';
import type { Config } from '../config.js';
import type { Coordinator } from '../core/claims.js';
import { listEntries } from '../store/list-entries.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import {
	LEFT_SERVER_SCHEMA_VERSION,
	leftServerKey,
	parseLeftServerRecord,
	type LeftServerRecord,
} from './left-server-record.js';

/** The marks of servers the bot left, beside the server records in the `watch` namespace. */
export interface LeftServerStore {
	get(guildId: string): Promise<LeftServerRecord | null>;
	/** Marks the server left at `at`, unless it already is (the first removal seen counts). Returns the mark. */
	mark(guildId: string, at: number, seenBy: LeftServerRecord['seenBy']): Promise<LeftServerRecord>;
	/** Removes the mark; true when there was one. */
	clear(guildId: string): Promise<boolean>;
	/** Every mark, read one at a time. */
	list(): AsyncGenerator<LeftServerRecord>;
}

export interface LeftServerStoreContext {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
}

/** One per opened store, so the gateway's events and the job of a process share its locks. */
export const leftServerStoreOf = onePerStore((ctx: LeftServerStoreContext): LeftServerStore => {
	// Never kept in memory: another process (or the job) may clear or purge a mark at any time.
	const records = createRecordStore(ctx.stores, recordLock(ctx), {
		namespace: WATCH_NAMESPACE,
		parse: parseLeftServerRecord,
	});
	return {
		get: async (guildId) => records.get(leftServerKey(guildId)),
		mark: async (guildId, at, seenBy) =>
			(await records.update(leftServerKey(guildId), (current) =>
				current ? undefined : { v: LEFT_SERVER_SCHEMA_VERSION, guildId, leftAt: at, seenBy },
			))!,
		clear: async (guildId) => records.remove(leftServerKey(guildId)),
		list: () => records.list(SERVER_LEFT_PREFIX),
	};
});

/** Every mark, read without locks or claims (the doctor's read-only view); each once, in no order. */
export async function storedLeftServers(
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>,
): Promise<LeftServerRecord[]> {
	const marks = new Map<string, LeftServerRecord>();
	for await (const { key } of listEntries(stores as Stores, WATCH_NAMESPACE)) {
		if (!key.startsWith(SERVER_LEFT_PREFIX) || marks.has(key)) continue;
		const mark = parseLeftServerRecord(await stores.watch.get(key));
		if (mark) marks.set(key, mark);
	}
	return [...marks.values()];
}
