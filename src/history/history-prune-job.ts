import type { JobLog, PeriodicJob, Turn } from '../core/periodic-runner.js';
import { listEntries } from '../store/list-entries.js';
import { HISTORY_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import type { HistoryStore } from './history-store.js';
import { addDays, DAY_MS, startOfDate, utcDateOf } from './utc-days.js';

export const HISTORY_PRUNE_EVERY_MS = DAY_MS;
const HOUR_MS = 3_600_000;

/** The store key of the day's prune claim, spelled once. */
export const historyPruneClaimKey = (date: string): string => `history-prune:${date}`;

export interface HistoryPruneOptions {
	/** Every stored history's account id, read lazily; called once per prune. */
	listAccountIds: () => AsyncIterable<string>;
	history: Pick<HistoryStore, 'prune'>;
	/** HISTORY_DAYS: the days kept, ending today (as a fold keeps them). */
	historyDays: number;
	/** True for the one caller across every process that first claims `key` (claimOnce). */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	/** Epoch ms. */
	now: () => number;
	log: JobLog;
}

/** The account ids of every history the store holds. */
export async function* storedHistoryIds(stores: Stores): AsyncGenerator<string> {
	for await (const { key } of listEntries(stores, HISTORY_NAMESPACE)) yield key;
}

/**
 * Deletes, once a UTC day across processes, the days of every account's history older than HISTORY_DAYS: a fold
 * trims only the account it writes, so an account no longer sampled would keep its old days until its record
 * expires. The day's prune is claimed before it starts and never released: one that fails half-way leaves the
 * rest to the next day's, which finds the same days and more.
 */
export function historyPruneJob(options: HistoryPruneOptions): PeriodicJob {
	const { now, log } = options;
	if (!Number.isInteger(options.historyDays) || options.historyDays < 1)
		throw new RangeError('historyDays must be a whole number above 0');
	const turn = async (round: Turn) => {
		const today = utcDateOf(now());
		// Held to an hour past the day's end, as the sampler's day claims: no second prune of the same day.
		const ttlMs = Math.max(HOUR_MS, startOfDate(today) + DAY_MS + HOUR_MS - now());
		if (!(await options.claimOnce(historyPruneClaimKey(today), ttlMs))) return;
		const firstKept = addDays(today, -(options.historyDays - 1));
		const counts = { kept: 0, rewritten: 0, deleted: 0 };
		for await (const accountId of options.listAccountIds()) {
			if (round.stopping) break;
			counts[await options.history.prune(accountId, firstKept)] += 1;
		}
		log.info({ date: today, firstKept, ...counts }, 'history prune done');
	};
	return { name: 'history prune', everyMs: HISTORY_PRUNE_EVERY_MS, turn, log };
}
