import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StorageUnavailableError } from '../errors.js';
import { sqliteFileOf } from '../store-url.js';
import { CLAIMS_TABLE, CREATE_CLAIMS_TABLE, TAKE_CLAIM } from './claim-sql.js';
import type { ClaimBackend, ClaimBackendSettings } from './claim-types.js';

/**
 * Claims in the bot's own SQLite file, so they outlive a restart. better-sqlite3 is synchronous: a
 * call can only wait on another connection's write lock, which the busy timeout bounds to the deadline.
 */
export async function openSqliteClaims(storeUrl: string, settings: ClaimBackendSettings): Promise<ClaimBackend> {
	const { deadlineMs, now } = settings;
	const file = sqliteFileOf(storeUrl);
	if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
	const storage = <T>(operation: () => T): T => {
		try {
			return operation();
		} catch (error) {
			throw new StorageUnavailableError({ cause: error });
		}
	};
	const db = storage(() => new Database(file, { timeout: deadlineMs }));
	storage(() => {
		db.pragma('journal_mode = WAL');
		db.exec(CREATE_CLAIMS_TABLE);
	});
	const take = db.prepare<[string, string, number, number], { token: string }>(TAKE_CLAIM(['?', '?', '?', '?']));
	const heldUntil = db.prepare<[string], { expires_at: number }>(
		`SELECT expires_at FROM ${CLAIMS_TABLE} WHERE key = ?`,
	);
	const release = db.prepare<[string, string]>(`DELETE FROM ${CLAIMS_TABLE} WHERE key = ? AND token = ?`);

	return {
		tryClaim: async (key, token, ttlMs) =>
			storage(() => {
				const at = now();
				if (take.get(key, token, at + ttlMs, at)) {
					return {
						claimed: true,
						release: async () => {
							storage(() => release.run(key, token));
						},
					};
				}
				const expiresAt = heldUntil.get(key)?.expires_at ?? at;
				return { claimed: false, retryAfterMs: Math.max(0, expiresAt - at) };
			}),
		close: async () => {
			if (db.open) db.close();
		},
	};
}
