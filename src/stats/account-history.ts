import { foldSnapshot, type HistoryRecord } from '../history/record.js';
import { historyAccountId } from '../history/account-id.js';
import type { Config } from '../config.js';
import type { HistoryStore } from '../history/history-store.js';
import type { Logger } from '../logger.js';
import type { StatsResult } from '../stats-api/snapshot.js';

export interface HistoryDeps {
	history: Pick<HistoryStore, 'read'>;
	config: Pick<Config, 'historyDays'>;
	log: Pick<Logger, 'warn'>;
}

/**
 * The account's history with this snapshot folded in. The bot also stores the snapshot in the background,
 * but nothing says that has finished; folding is order-free, so doing it here too changes nothing stored.
 * An account without a name has no history: the snapshot alone is the record. A store that cannot be read
 * costs the days beyond the snapshot, not the reply.
 */
export async function historyWithSnapshot(ctx: HistoryDeps, result: StatsResult, now: number): Promise<HistoryRecord> {
	const accountName = result.snapshot.meta.user;
	let stored: HistoryRecord | null = null;
	if (accountName !== null) {
		try {
			stored = await ctx.history.read(historyAccountId(accountName));
		} catch (error) {
			ctx.log.warn({ err: error }, 'history not read; showing the snapshot alone');
		}
	}
	return foldSnapshot(stored, result.snapshot, now, {
		historyDays: ctx.config.historyDays,
		receivedAt: result.fetchedAt,
	});
}
