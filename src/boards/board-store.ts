import {
	createRecordStore,
	onePerStore,
	recordLock,
	recordTable,
	type RecordLockContext,
} from '../core/record-store.js';
import type { WithLock } from '../core/claims.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
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

export type BoardStoreContext = RecordLockContext & {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
};

export function createBoardStore(stores: BoardStoreContext['stores'], lock: WithLock): BoardStore {
	const records = createRecordStore(stores, lock, { namespace: WATCH_NAMESPACE, parse: parseBoardRecord });
	const boards = recordTable(records, { key: boardKey, prefix: boardPrefix, id: (record) => record.channelId });
	return {
		get: boards.get,
		listServer: boards.listServer,
		listAll: boards.listAll,
		update: boards.update,
		withServerLock: async (guildId, fn) => records.withLock(`boards:${guildId}`, fn),
	};
}

/** One board store per opened store, so every command and the refresh job of a process share its locks. */
export const boardStoreOf = onePerStore((ctx: BoardStoreContext): BoardStore =>
	createBoardStore(ctx.stores, recordLock(ctx)),
);
