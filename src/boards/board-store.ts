import type Keyv from 'keyv';
import { storeSchemeOf } from '../store-url.js';
import { listEntries } from '../store/list-entries.js';
import { claimLock, createKeyedMutex, type WithLock } from '../core/claims.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import type { Coordinator } from '../core/claims.js';
import type { Config } from '../config.js';
import { asStorageUnavailable } from '../store/with-deadline.js';
import { boardKey, boardPrefix, parseBoardRecord, type BoardRecord } from './board-record.js';

/** The boards, kept beside the stat channels and alerts in the `watch` namespace (`board:<guild>:<channel>`). */
export interface BoardStore {
	get(guildId: string, channelId: string): Promise<BoardRecord | null>;
	/** One server's boards, ordered by channel id. */
	listServer(guildId: string): Promise<BoardRecord[]>;
	/** Every server's boards, read one at a time. */
	listAll(): AsyncGenerator<BoardRecord>;
	/**
	 * Reads the board, lets `change` return its next version (null deletes it, undefined leaves it) and writes it,
	 * under a lock every process on the store shares. Returns what is stored afterwards.
	 */
	update(
		guildId: string,
		channelId: string,
		change: (record: BoardRecord | null) => BoardRecord | null | undefined,
	): Promise<BoardRecord | null>;
	/** Runs `fn` under a lock over one server's boards, so two admins cannot pass the limit together. */
	withServerLock<T>(guildId: string, fn: () => Promise<T>): Promise<T>;
}

export type BoardStoreContext = {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
};

export function createBoardStore(stores: BoardStoreContext['stores'], lock: WithLock): BoardStore {
	const keyv: Keyv = stores.watch;
	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw asStorageUnavailable(error);
		}
	};
	const read = async (key: string) => parseBoardRecord(await storage(async () => keyv.get(key)));
	async function* walk(prefix: string): AsyncGenerator<BoardRecord> {
		// Redis SCAN may repeat a key while the store changes.
		const seen = new Set<string>();
		for await (const { key } of listEntries(stores as Stores, WATCH_NAMESPACE)) {
			if (!key.startsWith(prefix) || seen.has(key)) continue;
			seen.add(key);
			const record = await read(key);
			if (record) yield record;
		}
	}
	return {
		get: async (guildId, channelId) => read(boardKey(guildId, channelId)),
		listServer: async (guildId) => {
			const records: BoardRecord[] = [];
			for await (const record of walk(boardPrefix(guildId))) records.push(record);
			return records.sort((a, b) => a.channelId.localeCompare(b.channelId, 'en', { numeric: true }));
		},
		listAll: () => walk(boardPrefix()),
		update: async (guildId, channelId, change) => {
			const key = boardKey(guildId, channelId);
			return lock(key, async () => {
				const current = await read(key);
				const next = change(current);
				if (next === undefined) return current;
				if (next === null) {
					if (current !== null) await storage(async () => keyv.delete(key));
					return null;
				}
				await storage(async () => keyv.set(key, next));
				return next;
			});
		},
		withServerLock: async (guildId, fn) => lock(`boards:${guildId}`, fn),
	};
}

/** One board store per opened store, so every command and the refresh job of a process share its locks. */
const boardStores = new WeakMap<object, BoardStore>();

export function boardStoreOf(ctx: BoardStoreContext): BoardStore {
	let store = boardStores.get(ctx.stores);
	if (!store) {
		// One process owns a SQLite file: an in-process lock is exact there (as for the watch store).
		const shared = storeSchemeOf(ctx.config.storeUrl) !== 'sqlite';
		store = createBoardStore(ctx.stores, shared ? claimLock(ctx.coordinator) : createKeyedMutex());
		boardStores.set(ctx.stores, store);
	}
	return store;
}
