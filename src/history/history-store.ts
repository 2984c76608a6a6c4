import type Keyv from 'keyv';
import { StorageUnavailableError } from '../errors.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { historyAccountId } from './account-id.js';
import { DAY_MS } from './utc-days.js';
import { createKeyedMutex } from '../core/claims.js';
import type { WithLock } from '../core/claims.js';
import { DEFAULT_HISTORY_DAYS, foldSnapshot, HISTORY_SCHEMA_VERSION, parseHistoryRecord } from './record.js';
import type { HistoryRecord } from './record.js';

export interface HistoryStoreOptions {
	/** Keyv on the `history` namespace. */
	keyv: Keyv;
	/** Serialises the read-modify-write of one account; default: an in-process mutex per account. */
	withLock?: WithLock;
	/** HISTORY_DAYS. */
	historyDays?: number;
	/** Epoch ms; injectable so tests can move time. */
	now?: () => number;
	/**
	 * Records this process keeps after reading or writing them, so a repeated /stats costs no store read and
	 * no validation of a year of days. Only for a store no other process writes (one process on SQLite): every
	 * change then goes through record() or remove() here, which replace the copy. Default: none.
	 */
	cache?: { entries: number; ttlMs: number };
}

export interface HistoryStore {
	/**
	 * Folds a snapshot into its account's history and returns the new record. `receivedAt` (epoch ms, default
	 * now) dates a snapshot without `generated_at`. Returns null, storing nothing, when the snapshot names no
	 * account (`meta.user`): the history is keyed by the account, and keying it by the link or the key instead
	 * would mix two accounts' days once a link's key is replaced by one of another account. Throws
	 * StorageUnavailableError when the store fails.
	 */
	record(snapshot: StatsSnapshot, receivedAt?: number): Promise<HistoryRecord | null>;
	/** The history of `historyAccountId(name)`, or null when there is none (or it is not readable by this version). */
	read(accountId: string): Promise<HistoryRecord | null>;
	/** True when a history existed. */
	remove(accountId: string): Promise<boolean>;
	/**
	 * Drops the days before `firstKept` (`YYYY-MM-DD`) from the account's history, deleting the record when no day
	 * is left. A record with no such day, or not readable by this version, is left as it is.
	 */
	prune(accountId: string, firstKept: string): Promise<PruneOutcome>;
}

export type PruneOutcome = 'kept' | 'rewritten' | 'deleted';

export function createHistoryStore(options: HistoryStoreOptions): HistoryStore {
	const { keyv } = options;
	const withLock = options.withLock ?? createKeyedMutex();
	const historyDays = options.historyDays ?? DEFAULT_HISTORY_DAYS;
	const now = options.now ?? Date.now;
	// A record untouched for HISTORY_DAYS holds no day worth keeping, so the store may drop it by itself.
	const ttlMs = historyDays * DAY_MS;

	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw new StorageUnavailableError({ cause: error });
		}
	};

	// Records are never changed in place (a fold returns a new one), so callers may share the cached object.
	const cached = new Map<string, { record: Promise<HistoryRecord | null>; expiresAt: number }>();
	const remember = (accountId: string, record: Promise<HistoryRecord | null>) => {
		if (!options.cache || options.cache.entries <= 0) return;
		cached.delete(accountId);
		if (cached.size >= options.cache.entries) cached.delete(cached.keys().next().value as string);
		cached.set(accountId, { record, expiresAt: now() + options.cache.ttlMs });
		record.catch(() => {
			if (cached.get(accountId)?.record === record) cached.delete(accountId);
		});
	};

	return {
		record: async (snapshot, receivedAt) => {
			const accountName = snapshot.meta.user;
			if (accountName === null) return null;
			const accountId = historyAccountId(accountName);
			return withLock(accountId, async () => {
				const stored: unknown = await storage(async () => keyv.get(accountId));
				// Written by a newer version of the bot (a rollback): leave it for that version rather than lose it.
				if (isNewerSchema(stored)) return null;
				const next = foldSnapshot(parseHistoryRecord(stored), snapshot, now(), { historyDays, receivedAt });
				try {
					await storage(async () => keyv.set(accountId, next, ttlMs));
				} catch (error) {
					cached.delete(accountId);
					throw error;
				}
				// After the write: a read that started meanwhile and cached the older record is replaced.
				remember(accountId, Promise.resolve(next));
				return next;
			});
		},
		read: async (accountId) => {
			const hit = cached.get(accountId);
			if (hit && hit.expiresAt > now()) return hit.record;
			const record = storage(async () => keyv.get(accountId)).then(parseHistoryRecord);
			remember(accountId, record);
			return record;
		},
		remove: async (accountId) =>
			withLock(accountId, async () => {
				try {
					return await storage(async () => keyv.delete(accountId));
				} finally {
					cached.delete(accountId);
				}
			}),
		prune: async (accountId, firstKept) =>
			withLock(accountId, async (): Promise<PruneOutcome> => {
				const record = parseHistoryRecord(await storage(async () => keyv.get(accountId)));
				if (record === null) return 'kept';
				const dates = Object.entries(record.days);
				const kept = dates.filter(([date]) => date >= firstKept);
				if (kept.length === dates.length) return 'kept';
				cached.delete(accountId);
				if (kept.length === 0) {
					await storage(async () => keyv.delete(accountId));
					return 'deleted';
				}
				const next: HistoryRecord = { ...record, days: Object.fromEntries(kept) };
				// The expiry stays where the last fold put it: a prune is no sign the account is still read.
				await storage(async () => keyv.set(accountId, next, Math.max(1, next.updatedAt + ttlMs - now())));
				remember(accountId, Promise.resolve(next));
				return 'rewritten';
			}),
	};
}

function isNewerSchema(stored: unknown): boolean {
	if (typeof stored !== 'object' || stored === null || !('v' in stored)) return false;
	return typeof stored.v === 'number' && stored.v > HISTORY_SCHEMA_VERSION;
}
