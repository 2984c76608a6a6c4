import type Keyv from 'keyv';
import type { WithLock } from '../core/claims.js';
import { listEntries } from '../store/list-entries.js';
import { asStorageUnavailable } from '../store/with-deadline.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import { RENAME_WINDOW_MS } from './rename-budget.js';
import type { Stores } from '../store/open-stores.js';
import {
	alertKey,
	alertPrefix,
	parseAlertRecord,
	parseStatChannelRecord,
	statChannelKey,
	statChannelPrefix,
	type AlertRecord,
	type StatChannelRecord,
} from './watch-record.js';

const renameBudgetKey = (channelId: string) => `rename-budget:${channelId}`;

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

export interface WatchStore {
	statChannels: RecordTable<StatChannelRecord>;
	alerts: RecordTable<AlertRecord>;
	/**
	 * Keeps a removed stat channel's rename budget for as long as it binds, so removing and adding a channel
	 * again never buys a third rename within Discord's window.
	 */
	keepRenameBudget(record: StatChannelRecord, now: number): Promise<void>;
	/** The budget kept for a channel, if it still binds. */
	keptRenameBudget(channelId: string): Promise<Pick<StatChannelRecord, 'renames' | 'blockedUntil'> | null>;
	/** Runs `fn` under a lock over one server's records of `table`, so two admins cannot pass a limit together. */
	withServerLock<T>(table: 'statchannel' | 'alert', guildId: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * The `watch` namespace. `lock` serialises each record's read-modify-write: a lock over the store's claims when
 * processes share the store, an in-process mutex over the one process's SQLite file.
 */
export function createWatchStore(stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>, lock: WithLock): WatchStore {
	const keyv: Keyv = stores.watch;
	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw asStorageUnavailable(error);
		}
	};

	const table = <R extends { guildId: string }>(
		keyOf: (guildId: string, id: string) => string,
		prefixOf: (guildId?: string) => string,
		idOf: (record: R) => string,
		parse: (raw: unknown) => R | null,
	): RecordTable<R> => {
		const read = async (key: string) => parse(await storage(async () => keyv.get(key)));
		async function* walk(prefix: string): AsyncGenerator<R> {
			// Redis SCAN may repeat a key while the store changes.
			const seen = new Set<string>();
			for await (const { key } of listEntries(stores as Stores, WATCH_NAMESPACE)) {
				if (!key.startsWith(prefix) || seen.has(key)) continue;
				seen.add(key);
				const record = await read(key);
				if (record) yield record;
			}
		}
		const put = async (record: R) => {
			await storage(async () => keyv.set(keyOf(record.guildId, idOf(record)), record));
		};
		return {
			get: async (guildId, id) => read(keyOf(guildId, id)),
			put,
			remove: async (guildId, id) => storage(async () => keyv.delete(keyOf(guildId, id))),
			listServer: async (guildId) => {
				const records: R[] = [];
				for await (const record of walk(prefixOf(guildId))) records.push(record);
				return records.sort((a, b) => idOf(a).localeCompare(idOf(b), 'en', { numeric: true }));
			},
			listAll: () => walk(prefixOf()),
			update: async (guildId, id, change) =>
				lock(keyOf(guildId, id), async () => {
					const current = await read(keyOf(guildId, id));
					const next = change(current);
					if (next === undefined) return current;
					if (next === null) {
						if (current !== null) await storage(async () => keyv.delete(keyOf(guildId, id)));
						return null;
					}
					await put(next);
					return next;
				}),
		};
	};

	return {
		statChannels: table<StatChannelRecord>(
			statChannelKey,
			statChannelPrefix,
			(record) => record.channelId,
			parseStatChannelRecord,
		),
		alerts: table<AlertRecord>(alertKey, alertPrefix, (record) => record.id, parseAlertRecord),
		keepRenameBudget: async (record, now) => {
			const until = Math.max(record.blockedUntil, ...record.renames.map((at) => at + RENAME_WINDOW_MS));
			if (until <= now) return;
			const budget = { renames: record.renames, blockedUntil: record.blockedUntil };
			await storage(async () => keyv.set(renameBudgetKey(record.channelId), budget, until - now));
		},
		keptRenameBudget: async (channelId) => {
			const raw: unknown = await storage(async () => keyv.get(renameBudgetKey(channelId)));
			if (typeof raw !== 'object' || raw === null) return null;
			const { renames, blockedUntil } = raw as Partial<StatChannelRecord>;
			return Array.isArray(renames) && typeof blockedUntil === 'number' ? { renames, blockedUntil } : null;
		},
		withServerLock: async (name, guildId, fn) => lock(`watch-${name}s:${guildId}`, fn),
	};
}
