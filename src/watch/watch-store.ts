import { createRecordStore, recordTable, type RecordTable } from '../core/record-store.js';
import type { WithLock } from '../core/claims.js';
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
import { RENAME_BUDGET_PREFIX } from '../core/record-kinds.js';

export type { RecordTable } from '../core/record-store.js';

const renameBudgetKey = (channelId: string) => `${RENAME_BUDGET_PREFIX}${channelId}`;

/** What a removed stat channel keeps of its renames while they still bind. */
type RenameBudget = Pick<StatChannelRecord, 'renames' | 'blockedUntil'>;

function parseRenameBudget(raw: unknown): RenameBudget | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const { renames, blockedUntil } = raw as Partial<StatChannelRecord>;
	return Array.isArray(renames) && typeof blockedUntil === 'number' ? { renames, blockedUntil } : null;
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
	keptRenameBudget(channelId: string): Promise<RenameBudget | null>;
	/** Runs `fn` under a lock over one server's records of `table`, so two admins cannot pass a limit together. */
	withServerLock<T>(table: 'statchannel' | 'alert', guildId: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * The `watch` namespace's stat channels and alerts. `lock` serialises each record's read-modify-write: a lock over
 * the store's claims when processes share the store, an in-process mutex over the one process's SQLite file.
 */
export function createWatchStore(stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>, lock: WithLock): WatchStore {
	const statChannels = createRecordStore(stores, lock, {
		namespace: WATCH_NAMESPACE,
		parse: parseStatChannelRecord,
	});
	const alerts = createRecordStore(stores, lock, { namespace: WATCH_NAMESPACE, parse: parseAlertRecord });
	const budgets = createRecordStore(stores, lock, { namespace: WATCH_NAMESPACE, parse: parseRenameBudget });
	return {
		statChannels: recordTable(statChannels, {
			key: statChannelKey,
			prefix: statChannelPrefix,
			id: (record) => record.channelId,
		}),
		alerts: recordTable(alerts, { key: alertKey, prefix: alertPrefix, id: (record) => record.id }),
		keepRenameBudget: async (record, now) => {
			const until = Math.max(record.blockedUntil, ...record.renames.map((at) => at + RENAME_WINDOW_MS));
			if (until <= now) return;
			const budget = { renames: record.renames, blockedUntil: record.blockedUntil };
			await budgets.put(renameBudgetKey(record.channelId), budget, until - now);
		},
		keptRenameBudget: async (channelId) => budgets.get(renameBudgetKey(channelId)),
		withServerLock: async (name, guildId, fn) => lock(`watch-${name}s:${guildId}`, fn),
	};
}
