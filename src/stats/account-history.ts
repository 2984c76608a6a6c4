import { foldSnapshot, type HistoryRecord } from '../history/record.js';
import { historyAccountId } from '../history/account-id.js';
import type { Config } from '../config.js';
import type { HistoryStore } from '../history/history-store.js';
import type { Logger } from '../logger.js';
import type { StatsResult, StatsSnapshot } from '../stats-api/snapshot.js';
import { utcDateOf } from '../history/utc-days.js';

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
	// A cached snapshot over the same (cached) record gives the same fold all day: repeated /stats reuse it.
	const today = utcDateOf(now);
	const { historyDays } = ctx.config;
	const known = folds.get(result.snapshot);
	if (
		known &&
		known.stored === stored &&
		known.today === today &&
		known.historyDays === historyDays &&
		known.receivedAt === result.fetchedAt
	) {
		return known.record;
	}
	const record = foldSnapshot(stored, result.snapshot, now, { historyDays, receivedAt: result.fetchedAt });
	folds.set(result.snapshot, { stored, today, historyDays, receivedAt: result.fetchedAt, record });
	return record;
}

/**
 * The last fold of each snapshot still in use, and what it was folded with. Records are never changed in place,
 * so an identical input (the same objects, the same UTC day) gives an identical record.
 */
const folds = new WeakMap<
	StatsSnapshot,
	{ stored: HistoryRecord | null; today: string; historyDays: number; receivedAt: number; record: HistoryRecord }
>();
