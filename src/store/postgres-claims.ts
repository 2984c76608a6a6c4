import { CLAIMS_TABLE, CREATE_CLAIMS_TABLE, LIST_CLAIM_KEYS, pagedClaimKeys, TAKE_CLAIM } from './claim-sql.js';
import type { ClaimBackend, ClaimBackendSettings } from './claim-types.js';
import { withDeadline, withStoreDeadline } from './with-deadline.js';
import { openPostgresPool } from './postgres-store.js';

const UNIQUE_VIOLATION = '23505';
const POOL_SIZE = 4;

export async function openPostgresClaims(storeUrl: string, settings: ClaimBackendSettings): Promise<ClaimBackend> {
	const { deadlineMs, now, onError } = settings;
	const pool = openPostgresPool(storeUrl, { deadlineMs, max: POOL_SIZE, onError });
	const query = async <Row extends object>(text: string, values: unknown[] = []) =>
		withStoreDeadline(pool.query<Row & Record<string, unknown>>(text, values), deadlineMs);
	let table: Promise<unknown> | null = null;
	// Created on first use as well as now: a database that is down at start must not break claims for good.
	const ensureTable = async () => {
		table ??= query(CREATE_CLAIMS_TABLE).catch((error: { cause?: { code?: string } }) => {
			// Two processes racing to create the table: the loser sees a unique violation, the table exists.
			if (error.cause?.code === UNIQUE_VIOLATION) return;
			table = null;
			throw error;
		});
		await table;
	};
	await ensureTable().catch(onError);
	let ended: Promise<void> | null = null;

	return {
		tryClaim: async (key, token, ttlMs) => {
			await ensureTable();
			const at = now();
			const taken = await query(TAKE_CLAIM(['$1', '$2', '$3', '$4']), [key, token, at + ttlMs, at]);
			if (taken.rowCount === 1) {
				return {
					claimed: true,
					release: async () => {
						await query(`DELETE FROM ${CLAIMS_TABLE} WHERE key = $1 AND token = $2`, [key, token]);
					},
				};
			}
			const held = await query<{ expires_at: string }>(`SELECT expires_at FROM ${CLAIMS_TABLE} WHERE key = $1`, [key]);
			const expiresAt = Number(held.rows[0]?.expires_at ?? at);
			return { claimed: false, retryAfterMs: Math.max(0, expiresAt - at) };
		},
		keys: (prefix) =>
			pagedClaimKeys(prefix, async (pattern, after) => {
				await ensureTable();
				const { rows } = await query<{ key: string }>(LIST_CLAIM_KEYS(['$1', '$2']), [pattern, after]);
				return rows.map((row) => row.key);
			}),
		remove: async (key) => {
			await ensureTable();
			await query(`DELETE FROM ${CLAIMS_TABLE} WHERE key = $1`, [key]);
		},
		close: async () => {
			ended ??= withDeadline(pool.end(), deadlineMs * 2).catch(onError);
			await ended;
		},
	};
}
