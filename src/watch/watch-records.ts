import type Keyv from 'keyv';
import type { Config } from '../config.js';
import { storeSchemeOf } from '../store-url.js';
import type { Coordinator } from '../store/claim-types.js';
import { listEntries } from '../store/list-entries.js';
import { claimLock, createKeyedMutex, type WithLock } from '../store/locks.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { asStorageUnavailable } from '../store/with-deadline.js';

export type WatchStores = Pick<Stores, 'watch' | 'backend' | 'namespace'>;

/** What a store of records in the `watch` namespace needs to open itself and choose its lock. */
export type WatchStoreContext = {
	stores: WatchStores;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
};

/** Runs one call on the store, so a failing store reaches the caller as StorageUnavailable. */
export async function watchStorage<T>(operation: () => Promise<T>): Promise<T> {
	try {
		return await operation();
	} catch (error) {
		throw asStorageUnavailable(error);
	}
}

/** One kind of JSON record in the `watch` namespace, addressed by key. */
export interface WatchRecords<R> {
	read(key: string): Promise<R | null>;
	/** The records whose keys start with `prefix`, read one at a time. */
	walk(prefix: string): AsyncGenerator<R>;
	/**
	 * Reads the record, lets `change` return its next version (null deletes it, undefined leaves it) and writes it,
	 * under `lock`. Returns what is stored afterwards.
	 */
	update(key: string, change: (record: R | null) => R | null | undefined): Promise<R | null>;
}

export function watchRecords<R>(
	stores: WatchStores,
	lock: WithLock,
	parse: (raw: unknown) => R | null,
): WatchRecords<R> {
	const keyv: Keyv = stores.watch;
	const read = async (key: string) => parse(await watchStorage(async () => keyv.get(key)));
	return {
		read,
		async *walk(prefix) {
			// Redis SCAN may repeat a key while the store changes.
			const seen = new Set<string>();
			for await (const { key } of listEntries(stores as Stores, WATCH_NAMESPACE)) {
				if (!key.startsWith(prefix) || seen.has(key)) continue;
				seen.add(key);
				const record = await read(key);
				if (record) yield record;
			}
		},
		update: async (key, change) =>
			lock(key, async () => {
				const current = await read(key);
				const next = change(current);
				if (next === undefined) return current;
				if (next === null) {
					if (current !== null) await watchStorage(async () => keyv.delete(key));
					return null;
				}
				await watchStorage(async () => keyv.set(key, next));
				return next;
			}),
	};
}

/** One kind of record in the `watch` namespace: plain JSON, one entry per (server, id). */
export interface RecordTable<R> {
	get(guildId: string, id: string): Promise<R | null>;
	put(record: R): Promise<void>;
	/** True when one existed. */
	remove(guildId: string, id: string): Promise<boolean>;
	/** One server's records, ordered by id. */
	listServer(guildId: string): Promise<R[]>;
	/** Every server's records, read one at a time. */
	listAll(): AsyncGenerator<R>;
	/**
	 * Reads the record, lets `change` return its next version (or null to delete it, or undefined to leave it),
	 * and writes it, under a lock shared by every process on the store. Returns what is stored afterwards.
	 */
	update(guildId: string, id: string, change: (record: R | null) => R | null | undefined): Promise<R | null>;
}

export function recordTable<R extends { guildId: string }>(
	stores: WatchStores,
	lock: WithLock,
	table: {
		keyOf: (guildId: string, id: string) => string;
		prefixOf: (guildId?: string) => string;
		idOf: (record: R) => string;
		parse: (raw: unknown) => R | null;
	},
): RecordTable<R> {
	const { keyOf, prefixOf, idOf } = table;
	const keyv: Keyv = stores.watch;
	const records = watchRecords(stores, lock, table.parse);
	return {
		get: async (guildId, id) => records.read(keyOf(guildId, id)),
		put: async (record) => {
			await watchStorage(async () => keyv.set(keyOf(record.guildId, idOf(record)), record));
		},
		remove: async (guildId, id) => watchStorage(async () => keyv.delete(keyOf(guildId, id))),
		listServer: async (guildId) => {
			const found: R[] = [];
			for await (const record of records.walk(prefixOf(guildId))) found.push(record);
			return found.sort((a, b) => idOf(a).localeCompare(idOf(b), 'en', { numeric: true }));
		},
		listAll: () => records.walk(prefixOf()),
		update: async (guildId, id, change) => records.update(keyOf(guildId, id), change),
	};
}

/**
 * Opens a store once per opened store, so every command and job of a process shares its locks. One process owns
 * a SQLite file: an in-process lock is exact there, and a claim per write would only add writes to the file that
 * the store's own connection is waiting on.
 */
export function onePerOpenedStore<S>(
	create: (stores: WatchStores, lock: WithLock) => S,
): (ctx: WatchStoreContext) => S {
	const opened = new WeakMap<object, S>();
	return (ctx) => {
		let store = opened.get(ctx.stores);
		if (!store) {
			const shared = storeSchemeOf(ctx.config.storeUrl) !== 'sqlite';
			store = create(ctx.stores, shared ? claimLock(ctx.coordinator) : createKeyedMutex());
			opened.set(ctx.stores, store);
		}
		return store;
	};
}
