import sqlite3 from 'sqlite3';
import { sqliteFileOf } from '../store-url.js';
import { CLAIMS_TABLE, CREATE_CLAIMS_TABLE, LIST_CLAIM_KEYS, pagedClaimKeys, TAKE_CLAIM } from './claim-sql.js';
import type { ClaimBackend, ClaimBackendSettings } from './claim-types.js';
import { withStoreDeadline } from './with-deadline.js';
import { createFolderOf } from './sqlite-folder.js';

/**
 * Claims in the bot's own SQLite file, so they outlive a restart. They go through `sqlite3`, the library
 * @keyv/sqlite uses, never a second SQLite library: two copies of SQLite in one process do not see each other's
 * locks on the same file (POSIX locks belong to the process), so their writes interleave in the WAL and corrupt
 * the file. One copy keeps its connections apart itself.
 */
export async function openSqliteClaims(storeUrl: string, settings: ClaimBackendSettings): Promise<ClaimBackend> {
	const { deadlineMs, now } = settings;
	const file = sqliteFileOf(storeUrl);
	createFolderOf(file);
	const db = await withStoreDeadline(
		new Promise<sqlite3.Database>((resolve, reject) => {
			const opened: sqlite3.Database = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
		}),
		deadlineMs,
	);
	// A write waits for another connection's lock at most as long as the whole call may take.
	db.configure('busyTimeout', deadlineMs);
	const all = async <Row>(sql: string, ...values: unknown[]) =>
		withStoreDeadline(
			new Promise<Row[]>((resolve, reject) => {
				db.all<Row>(sql, values, (error, rows) => (error ? reject(error) : resolve(rows)));
			}),
			deadlineMs,
		);
	await all('PRAGMA journal_mode = WAL');
	// A forgotten member's claim rows are overwritten when deleted, not left in free pages of the file.
	await all('PRAGMA secure_delete = ON');
	await all(CREATE_CLAIMS_TABLE);
	let closed: Promise<void> | null = null;

	return {
		tryClaim: async (key, token, ttlMs) => {
			const at = now();
			const taken = await all<{ token: string }>(TAKE_CLAIM(['?', '?', '?', '?']), key, token, at + ttlMs, at);
			if (taken.length === 1) {
				return {
					claimed: true,
					release: async () => {
						await all(`DELETE FROM ${CLAIMS_TABLE} WHERE key = ? AND token = ?`, key, token);
					},
				};
			}
			const held = await all<{ expires_at: number }>(`SELECT expires_at FROM ${CLAIMS_TABLE} WHERE key = ?`, key);
			const expiresAt = Number(held[0]?.expires_at ?? at);
			return { claimed: false, retryAfterMs: Math.max(0, expiresAt - at) };
		},
		keys: (prefix) =>
			pagedClaimKeys(prefix, async (pattern, after) =>
				(await all<{ key: string }>(LIST_CLAIM_KEYS(['?', '?']), pattern, after)).map((row) => row.key),
			),
		remove: async (key) => {
			await all(`DELETE FROM ${CLAIMS_TABLE} WHERE key = ?`, key);
		},
		close: async () => {
			closed ??= withStoreDeadline(
				new Promise<void>((resolve, reject) => {
					db.close((error) => (error ? reject(error) : resolve()));
				}),
				deadlineMs,
			).catch(settings.onError);
			await closed;
		},
	};
}
