import type { WithLock } from '../store/locks.js';
import { onePerOpenedStore, recordTable, type WatchStoreContext, type WatchStores } from '../watch/watch-records.js';
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

export type BoardStoreContext = WatchStoreContext;

export function createBoardStore(stores: WatchStores, lock: WithLock): BoardStore {
	const table = recordTable<BoardRecord>(stores, lock, {
		keyOf: boardKey,
		prefixOf: boardPrefix,
		idOf: (record) => record.channelId,
		parse: parseBoardRecord,
	});
	return {
		get: table.get,
		listServer: table.listServer,
		listAll: table.listAll,
		update: table.update,
		withServerLock: async (guildId, fn) => lock(`boards:${guildId}`, fn),
	};
}

/** One board store per opened store, so every command and the refresh job of a process share its locks. */
const boardStores = onePerOpenedStore(createBoardStore);

export function boardStoreOf(ctx: BoardStoreContext): BoardStore {
	return boardStores(ctx);
}
