import { storeSchemeOf } from '../store-url.js';
import { withStoreDeadline } from './with-deadline.js';

/**
 * How long a call waits for the store's count before the process falls back to its own share: a frozen
 * store must cost a background call a fraction of a second, never the replies.
 */
// A slow answer is not a failure: a process that gave up too soon would spend its own share on top of what the
// others take from the store, so the wait is long enough for a loaded host and still bounded.
export const BUDGET_STORE_WAIT_MS = 1000;

/** The store's side of the REST budget: a count per epoch second and a shared hold after a global 429. */
export interface BudgetCounter {
	/** Adds one to the count of `second` (epoch s); returns the count now and the shared hold (epoch ms, 0: none). */
	take(second: number): Promise<{ count: number; holdUntil: number }>;
	/** Every process waits until `untilMs` (a global 429's retry_after). */
	hold(untilMs: number): Promise<void>;
	close(): Promise<void>;
}

/** The REST budget's counts belong to the namespace that names them (`rest-budget`), beside the store's others. */
export const REST_BUDGET_NAMESPACE = 'rest-budget';

/** A second's count outlives the second just long enough for a slow caller's clock. */
const COUNT_TTL_MS = 5000;
/** Rows of seconds older than this are deleted on PostgreSQL (every CLEANUP_EVERY-th take). */
const CLEANUP_EVERY = 200;
const TABLE = 'adstats_rest_budget';
/** The hold after a global 429 is one row/key beside the seconds. */
const HOLD = 'hold';

export interface BudgetCounterOptions {
	/** Tests sharing one Redis or PostgreSQL keep their counts apart with it. */
	namespacePrefix?: string;
	onError?: (error: unknown) => void;
}

/**
 * The store's count of the REST budget: `INCR` of a key per epoch second on Redis, an upsert of a row per
 * second on PostgreSQL. Null on SQLite: one process owns the file, so the budget is counted in memory there.
 * Its connection is its own, with a short deadline, so a slow store costs a background call at most that.
 */
export async function openBudgetCounter(
	storeUrl: string,
	options: BudgetCounterOptions = {},
): Promise<BudgetCounter | null> {
	const prefix = `${options.namespacePrefix ?? ''}${REST_BUDGET_NAMESPACE}:`;
	const onError = options.onError ?? (() => undefined);
	switch (storeSchemeOf(storeUrl)) {
		case 'redis':
			return redisCounter(storeUrl, prefix, onError);
		case 'postgres':
			return postgresCounter(storeUrl, prefix, onError);
		default:
			return null;
	}
}

/** Sets the hold only when it ends later than the one stored: a shorter 429 never cuts a longer hold short. */
const LATER_HOLD = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 0`;

async function redisCounter(url: string, prefix: string, onError: (e: unknown) => void): Promise<BudgetCounter> {
	const { openRedisConnection } = await import('./redis-connection.js');
	const connection = await openRedisConnection(url, { deadlineMs: BUDGET_STORE_WAIT_MS * 2, onError });
	return {
		take: async (second) =>
			connection.run(async (client) => {
				const key = `${prefix}${second}`;
				const [count, , hold] = (await client
					.multi()
					.incr(key)
					.pExpire(key, COUNT_TTL_MS)
					.get(prefix + HOLD)
					.exec()) as unknown as [number, number, string | null];
				return { count: Number(count), holdUntil: Number(hold ?? 0) };
			}),
		hold: async (untilMs) => {
			const ttlMs = Math.max(1, untilMs - Date.now()) + COUNT_TTL_MS;
			await connection.run(async (client) =>
				client.eval(LATER_HOLD, { keys: [prefix + HOLD], arguments: [String(untilMs), String(ttlMs)] }),
			);
		},
		close: async () => connection.close(),
	};
}

async function postgresCounter(url: string, prefix: string, onError: (e: unknown) => void): Promise<BudgetCounter> {
	const { openPostgresPool } = await import('./postgres-store.js');
	const deadlineMs = BUDGET_STORE_WAIT_MS * 2;
	const pool = openPostgresPool(url, { deadlineMs, max: 2, onError });
	const query = async <Row extends Record<string, unknown>>(text: string, values: unknown[]) =>
		withStoreDeadline(pool.query<Row>(text, values), deadlineMs);
	let table: Promise<unknown> | null = null;
	const ensureTable = async () => {
		table ??= query(
			`CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, count BIGINT NOT NULL, at BIGINT NOT NULL)`,
			[],
		).catch((error: { cause?: { code?: string } }) => {
			// Two processes creating it at once: the loser's unique violation means it exists.
			if (error.cause?.code === '23505') return;
			table = null;
			throw error;
		});
		await table;
	};
	await ensureTable().catch(onError);
	let takes = 0;
	return {
		take: async (second) => {
			await ensureTable();
			takes += 1;
			if (takes % CLEANUP_EVERY === 0) {
				void query(`DELETE FROM ${TABLE} WHERE key LIKE $1 AND key <> $2 AND at < $3`, [
					`${prefix}%`,
					prefix + HOLD,
					second - COUNT_TTL_MS / 1000,
				]).catch(onError);
			}
			// One round trip: the second's count after this call, and the hold row if any.
			const { rows } = await query<{ count: string; hold: string | null }>(
				`WITH taken AS (
					INSERT INTO ${TABLE} (key, count, at) VALUES ($1, 1, $2)
					ON CONFLICT (key) DO UPDATE SET count = ${TABLE}.count + 1
					RETURNING count
				)
				SELECT taken.count, (SELECT count FROM ${TABLE} WHERE key = $3) AS hold FROM taken`,
				[`${prefix}${second}`, second, prefix + HOLD],
			);
			return { count: Number(rows[0]?.count ?? 0), holdUntil: Number(rows[0]?.hold ?? 0) };
		},
		hold: async (untilMs) => {
			await ensureTable();
			await query(
				`INSERT INTO ${TABLE} (key, count, at) VALUES ($1, $2, $3)
				ON CONFLICT (key) DO UPDATE SET count = GREATEST(${TABLE}.count, excluded.count), at = excluded.at`,
				[prefix + HOLD, untilMs, Math.floor(untilMs / 1000)],
			);
		},
		close: async () => {
			await pool.end().catch(onError);
		},
	};
}
