import type Keyv from 'keyv';
import type { WithLock } from '../store/locks.js';
import { RENAME_WINDOW_MS } from './rename-budget.js';
import { recordTable, watchStorage, type RecordTable, type WatchStores } from './watch-records.js';
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

export type { RecordTable } from './watch-records.js';

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
export function createWatchStore(stores: WatchStores, lock: WithLock): WatchStore {
	const keyv: Keyv = stores.watch;

	return {
		statChannels: recordTable<StatChannelRecord>(stores, lock, {
			keyOf: statChannelKey,
			prefixOf: statChannelPrefix,
			idOf: (record) => record.channelId,
			parse: parseStatChannelRecord,
		}),
		alerts: recordTable<AlertRecord>(stores, lock, {
			keyOf: alertKey,
			prefixOf: alertPrefix,
			idOf: (record) => record.id,
			parse: parseAlertRecord,
		}),
		keepRenameBudget: async (record, now) => {
			const until = Math.max(record.blockedUntil, ...record.renames.map((at) => at + RENAME_WINDOW_MS));
			if (until <= now) return;
			const budget = { renames: record.renames, blockedUntil: record.blockedUntil };
			await watchStorage(async () => keyv.set(renameBudgetKey(record.channelId), budget, until - now));
		},
		keptRenameBudget: async (channelId) => {
			const raw: unknown = await watchStorage(async () => keyv.get(renameBudgetKey(channelId)));
			if (typeof raw !== 'object' || raw === null) return null;
			const { renames, blockedUntil } = raw as Partial<StatChannelRecord>;
			return Array.isArray(renames) && typeof blockedUntil === 'number' ? { renames, blockedUntil } : null;
		},
		withServerLock: async (name, guildId, fn) => lock(`watch-${name}s:${guildId}`, fn),
	};
}
