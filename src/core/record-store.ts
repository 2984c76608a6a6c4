// The one record store every feature keeps its records in: one kind of record in a Keyv namespace, listed by key
// prefix, changed under a lock per record, optionally kept in memory by a process that alone writes its store.
import type Keyv from 'keyv';
import type { Config } from '../config.js';
import { storeSchemeOf } from '../store-url.js';
import { listEntries } from '../store/list-entries.js';
import { claimLock, createKeyedMutex, type Coordinator, type WithLock } from './claims.js';
import type { NamespaceName } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { asStorageUnavailable } from '../store/with-deadline.js';

/** The namespaces that are both a namespace name and a Keyv of the opened stores. */
export type RecordNamespace = Extract<NamespaceName, keyof Stores>;

export interface RecordStoreOptions<R, N extends RecordNamespace = RecordNamespace> {
	namespace: N;
	/** A stored value back into a record; null when there is none to read (missing, or not one of this kind). */
	parse(raw: unknown): R | null;
	/** What is stored for a record; the record itself unless the kind wraps it. */
	stored?(record: R): unknown;
	/**
	 * Keeps what was read or written for `keptMs`, for a process that alone writes its store (SQLite): its own
	 * changes replace what it kept at once; the time only bounds a change another program wrote to the file.
	 */
	cache?: {
		keptMs: number;
		now: () => number;
		/**
		 * Hands out what it keeps deeply frozen, the same object each time, instead of a copy per read: for a kind read
		 * on every reply (notes on each /stats chart), whose readers never change what they get.
		 */
		frozen?: boolean;
	};
}

export interface RecordStore<R> {
	/** The record under `key`: from memory when the store keeps them and it is fresh, else read. */
	get(key: string): Promise<R | null>;
	/** Writes the record; `ttlMs` makes it expire (it is then never kept in memory). */
	put(key: string, record: R, ttlMs?: number): Promise<void>;
	/** True when one existed. */
	remove(key: string): Promise<boolean>;
	/** Every record whose key starts with `prefix`, read one at a time, each once. */
	list(prefix: string): AsyncGenerator<R>;
	/** The same, all at once, ordered by what follows the prefix in their keys (the id), numbers as numbers. */
	listOrdered(prefix: string): Promise<R[]>;
	/**
	 * Reads the record (from the store, never memory), lets `change` return its next version (null deletes it,
	 * undefined leaves it) and writes it, under the record's lock. Returns what is stored afterwards.
	 */
	update(key: string, change: (record: R | null) => R | null | undefined): Promise<R | null>;
	/** Runs `fn` under the lock named `name` (a server's limit over several records, say). */
	withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
	try {
		return await operation();
	} catch (error) {
		throw asStorageUnavailable(error);
	}
};

/** Records in memory at most per store; past it the oldest entry goes. */
const MAX_KEPT_RECORDS = 10_000;

export function createRecordStore<R, N extends RecordNamespace>(
	stores: Pick<Stores, N | 'backend' | 'namespace'>,
	lock: WithLock,
	options: RecordStoreOptions<R, N>,
): RecordStore<R> {
	const keyv: Keyv = stores[options.namespace];
	const stored = options.stored ?? ((record: R) => record);
	const kept = createKept<R>(
		options.cache?.keptMs ?? 0,
		options.cache?.now ?? Date.now,
		options.cache?.frozen ?? false,
	);

	const readStored = async (key: string): Promise<R | null> => {
		const writesBefore = kept.writes;
		const record = options.parse(await storage(async () => keyv.get(key)));
		// A write that landed while this read was out may have made its answer old: it is used, not kept.
		if (kept.writes === writesBefore) kept.set(key, record);
		return record;
	};
	const write = async <T>(key: string, operation: () => Promise<T>, after: R | null, keep = true): Promise<T> => {
		kept.forget(key);
		let result: T;
		try {
			result = await storage(operation);
		} finally {
			// Written or not (a failed write may still have landed), what was kept is dropped.
			kept.forget(key);
		}
		if (keep) kept.set(key, after);
		return result;
	};
	const put = async (key: string, record: R, ttlMs?: number) => {
		const value = stored(record);
		const set = async () => (ttlMs === undefined ? keyv.set(key, value) : keyv.set(key, value, ttlMs));
		await write(key, set, record, ttlMs === undefined);
	};
	const remove = async (key: string) => write(key, async () => keyv.delete(key), null);

	async function* walk(prefix: string): AsyncGenerator<{ key: string; record: R }> {
		// Redis SCAN may repeat a key while the store changes.
		const seen = new Set<string>();
		for await (const { key } of listEntries(stores as Stores, options.namespace)) {
			if (!key.startsWith(prefix) || seen.has(key)) continue;
			seen.add(key);
			const record = options.parse(await storage(async () => keyv.get(key)));
			if (record !== null) yield { key, record };
		}
	}

	return {
		get: async (key) => {
			const known = kept.get(key);
			return known ? known.record : readStored(key);
		},
		put,
		remove,
		async *list(prefix) {
			for await (const { record } of walk(prefix)) yield record;
		},
		listOrdered: async (prefix) => {
			const found: { id: string; record: R }[] = [];
			for await (const { key, record } of walk(prefix)) found.push({ id: key.slice(prefix.length), record });
			found.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
			return found.map(({ record }) => record);
		},
		update: async (key, change) =>
			lock(key, async () => {
				// Under the lock the store itself is read, as the rule the change checks needs the record as it is.
				const current = await readStored(key);
				const next = change(current);
				if (next === undefined) return current;
				if (next === null) {
					if (current !== null) await remove(key);
					return null;
				}
				await put(key, next);
				return next;
			}),
		withLock: async (name, fn) => lock(name, fn),
	};
}

/**
 * Records by key, each with when it was kept (nothing is kept when `keptMs` is 0); `writes` counts the writes
 * begun. Each answer is a copy, so a caller changing its record cannot change what the next one reads; or, for a
 * `frozen` kind, the one deeply frozen copy, which no caller can change.
 */
function createKept<R>(keptMs: number, now: () => number, frozen: boolean) {
	const entries = new Map<string, { record: R | null; at: number }>();
	return {
		writes: 0,
		get(key: string): { record: R | null } | undefined {
			const entry = entries.get(key);
			if (!entry) return undefined;
			if (now() - entry.at < keptMs) return { record: frozen ? entry.record : structuredClone(entry.record) };
			entries.delete(key);
			return undefined;
		},
		set(key: string, record: R | null): void {
			if (keptMs <= 0) return;
			entries.delete(key);
			const copy = structuredClone(record);
			entries.set(key, { record: frozen ? deepFreeze(copy) : copy, at: now() });
			if (entries.size > MAX_KEPT_RECORDS) entries.delete(entries.keys().next().value as string);
		},
		forget(key: string): void {
			this.writes += 1;
			entries.delete(key);
		},
	};
}

function deepFreeze<T>(value: T): T {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		for (const inner of Object.values(value)) deepFreeze(inner);
		Object.freeze(value);
	}
	return value;
}

/** One server's records of one kind, each under (server, id). */
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
	 * and writes it, under the record's lock. Returns what is stored afterwards.
	 */
	update(guildId: string, id: string, change: (record: R | null) => R | null | undefined): Promise<R | null>;
}

/** How a kind keyed per server spells its keys: `key(guildId, id)` starts with `prefix(guildId)`. */
export interface ServerKeys<R> {
	key(guildId: string, id: string): string;
	/** Every server's prefix without a server. */
	prefix(guildId?: string): string;
	id(record: R): string;
}

export function recordTable<R extends { guildId: string }>(
	records: RecordStore<R>,
	keys: ServerKeys<R>,
): RecordTable<R> {
	return {
		get: async (guildId, id) => records.get(keys.key(guildId, id)),
		put: async (record) => records.put(keys.key(record.guildId, keys.id(record)), record),
		remove: async (guildId, id) => records.remove(keys.key(guildId, id)),
		listServer: async (guildId) => records.listOrdered(keys.prefix(guildId)),
		listAll: () => records.list(keys.prefix()),
		update: async (guildId, id, change) => records.update(keys.key(guildId, id), change),
	};
}

/** What choosing a record's lock needs of the bot's context. */
export interface RecordLockContext {
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
}

/** Whether processes may share the store: every store but a SQLite file, which one process owns. */
export function isSharedStore(config: Pick<Config, 'storeUrl'>): boolean {
	return storeSchemeOf(config.storeUrl) !== 'sqlite';
}

/**
 * A lock over the store's claims when processes share the store; an in-process mutex over one process's SQLite
 * file, where it is exact and a claim per write would only add writes the store's own connection waits on.
 */
export function recordLock(ctx: RecordLockContext): WithLock {
	return isSharedStore(ctx.config) ? claimLock(ctx.coordinator) : createKeyedMutex();
}

/**
 * One value per opened store (a feature's store over it), so every command, route and job of a process shares its
 * locks and what it keeps in memory.
 */
export function onePerStore<C extends { stores: object }, T>(build: (ctx: C) => T): (ctx: C) => T {
	const built = new WeakMap<object, T>();
	return (ctx) => {
		let value = built.get(ctx.stores);
		if (value === undefined) {
			value = build(ctx);
			built.set(ctx.stores, value);
		}
		return value;
	};
}
