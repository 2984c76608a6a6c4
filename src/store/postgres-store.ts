import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { DatabaseError, Pool, QueryResultRow } from 'pg';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import type { StoreDeadline } from './with-deadline.js';
import type { RawEntry } from './raw-entry.js';

// Same layout as @keyv/postgres, so rows written before this adapter existed still read back.
const TABLE = 'keyv';
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${TABLE} (key VARCHAR(255) PRIMARY KEY, value TEXT)`;
const UNIQUE_VIOLATION = '23505';
const LIST_PAGE = 500;

export interface PostgresPoolOptions {
	/** Bounds each query, waiting for a pooled connection included. */
	deadlineMs: number;
	max: number;
	/** Receives errors of idle pooled connections (server restart, terminated backend) instead of a crash. */
	onError: (error: unknown) => void;
}

const DRIVER_TIMEOUT_MARGIN_MS = 250;

/**
 * A pool we own, unlike @keyv/postgres's hidden module-level one: pg-pool re-emits an idle connection's
 * failure as 'error', which kills the process when nothing listens.
 */
export function openPostgresPool(uri: string, options: PostgresPoolOptions): Pool {
	const pool = new pg.Pool({
		connectionString: uri,
		// Names our connections in pg_stat_activity unless the URI sets application_name itself.
		fallback_application_name: 'adstats-discord-bot',
		// pg's own timeouts come just after the store deadline, so that the deadline (which also shortens the next
		// calls during an outage) is what a member's command meets; pg's still end the connection.
		connectionTimeoutMillis: options.deadlineMs + DRIVER_TIMEOUT_MARGIN_MS,
		// A query that misses it ends its connection (pg-pool discards a client released with an error),
		// so a server that stopped answering costs nothing once it answers again.
		query_timeout: options.deadlineMs + DRIVER_TIMEOUT_MARGIN_MS,
		max: options.max,
	});
	pool.on('error', options.onError);
	return pool;
}

/**
 * Keyv store adapter over a shared pool. Keyv prefixes keys with the namespace and keeps `expires`
 * inside the serialized value, so expiry is enforced by Keyv on read (an expired row is deleted then).
 */
export class PostgresStore extends EventEmitter implements KeyvStoreAdapter {
	readonly opts = { dialect: 'postgres', table: TABLE };
	namespace?: string | undefined;
	readonly #pool: Pool;
	readonly #deadline: StoreDeadline;
	#ready: Promise<void> | null = null;

	/** `deadline` is shared by every namespace on the pool: they fail and recover together. */
	constructor(pool: Pool, deadline: StoreDeadline) {
		super();
		this.#pool = pool;
		this.#deadline = deadline;
	}

	async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
		const rows = await this.#query<{ value: string }>(`SELECT value FROM ${TABLE} WHERE key = $1`, [key]);
		return rows[0]?.value as StoredData<Value> | undefined;
	}

	async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
		const rows = await this.#query<{ key: string; value: string }>(
			`SELECT key, value FROM ${TABLE} WHERE key = ANY($1)`,
			[keys],
		);
		const byKey = new Map(rows.map((row) => [row.key, row.value]));
		return keys.map((key) => byKey.get(key) as StoredData<Value | undefined>);
	}

	async has(key: string): Promise<boolean> {
		return (await this.#query(`SELECT 1 FROM ${TABLE} WHERE key = $1`, [key])).length > 0;
	}

	async set(key: string, value: string): Promise<void> {
		await this.#query(
			`INSERT INTO ${TABLE} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
			[key, value],
		);
	}

	async delete(key: string): Promise<boolean> {
		return (await this.#query(`DELETE FROM ${TABLE} WHERE key = $1 RETURNING key`, [key])).length > 0;
	}

	async deleteMany(keys: string[]): Promise<boolean> {
		return (await this.#query(`DELETE FROM ${TABLE} WHERE key = ANY($1) RETURNING key`, [keys])).length > 0;
	}

	/** Deletes this namespace's rows only (every row when no namespace is set). */
	async clear(): Promise<void> {
		const pattern = this.namespace ? `${this.namespace.replace(/[\\%_]/g, '\\$&')}:%` : '%';
		await this.#query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [pattern]);
	}

	/** The pool belongs to whoever opened it; closing one namespace must not end the other's. */
	async disconnect(): Promise<void> {}

	/**
	 * Every row whose key starts with `keyPrefix` (Keyv's `namespace:`), that prefix removed, in key order;
	 * one deadline-bound query per page.
	 */
	async *list(keyPrefix: string): AsyncGenerator<RawEntry> {
		const pattern = `${keyPrefix.replace(/[\\%_]/g, '\\$&')}%`;
		let after = '';
		for (;;) {
			const rows = await this.#query<{ key: string; value: string }>(
				`SELECT key, value FROM ${TABLE} WHERE key LIKE $1 AND key > $2 ORDER BY key LIMIT ${LIST_PAGE}`,
				[pattern, after],
			);
			for (const row of rows) yield { key: row.key.slice(keyPrefix.length), raw: row.value };
			const last = rows.at(-1);
			if (!last || rows.length < LIST_PAGE) return;
			after = last.key;
		}
	}

	/** For Keyv's own `keyv.iterator`: full keys, Keyv removes its `namespace:` prefix itself. */
	async *iterator(namespace?: string): AsyncGenerator<[string, string]> {
		const prefix = namespace ? `${namespace}:` : '';
		for await (const { key, raw } of this.list(prefix)) yield [prefix + key, raw];
	}

	async #query<Row extends QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
		return this.#deadline.run(
			(async () => {
				await this.#ensureTable();
				return (await this.#pool.query<Row>(text, values)).rows;
			})(),
		);
	}

	// Retried after a failure: a database that was down at start-up must not break the store for good.
	async #ensureTable(): Promise<void> {
		this.#ready ??= this.#pool
			.query(CREATE_TABLE)
			.then(() => undefined)
			.catch((error: DatabaseError) => {
				// Two connections racing to create the table: the loser sees a unique violation, the table exists.
				if (error.code === UNIQUE_VIOLATION) return;
				this.#ready = null;
				throw error;
			});
		return this.#ready;
	}
}
