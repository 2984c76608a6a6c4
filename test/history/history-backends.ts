// A history Keyv on each backend, opened the way src/store/open-stores.ts opens its namespaces, in a namespace
// unique to the run; several connections to one store stand for several bot processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { createClient } from '@redis/client';
import Keyv from 'keyv';
import pg from 'pg';
import { StoreDeadline } from '../../src/store/with-deadline.js';
import { openPostgresPool, PostgresStore } from '../../src/store/postgres-store.js';
import { POSTGRES_URL, postgresBackend, REDIS_URL, redisBackend } from '../links/backends.js';

export interface HistoryBackend {
	name: string;
	/** Why the backend cannot be used here, or null when it can. */
	unavailable: string | null;
	open(): Promise<OpenedHistoryBackend>;
}

export interface OpenedHistoryBackend {
	/** A new connection to the run's namespace: a second one stands for another process. */
	connect(): Promise<Keyv>;
	/** Everything the run's namespace holds, as text. */
	dumpRaw(): Promise<string>;
	/** Closes every connection and removes the run's data. */
	cleanup(): Promise<void>;
}

const runNamespace = () => `t${process.pid}x${Math.random().toString(36).slice(2, 8)}-history`;

function sqlite(): HistoryBackend {
	return {
		name: 'sqlite',
		unavailable: null,
		open: async () => {
			const dir = mkdtempSync(join(tmpdir(), 'history-sqlite-'));
			const uri = `sqlite://${join(dir, 'bot.sqlite')}`;
			const namespace = runNamespace();
			const adapters: KeyvSqlite[] = [];
			return {
				connect: async () => {
					const adapter = new KeyvSqlite({ uri, busyTimeout: 5000 });
					adapter.on('error', () => undefined);
					await adapter.query('PRAGMA journal_mode = WAL');
					adapters.push(adapter);
					return new Keyv({ store: adapter, namespace, throwOnErrors: true });
				},
				dumpRaw: async () => {
					const rows = (await adapters[0]?.query('SELECT key, value FROM keyv')) as { key: string; value: string }[];
					return rows.map((row) => `${row.key}=${row.value}`).join('\n');
				},
				cleanup: async () => {
					for (const adapter of adapters) await adapter.disconnect();
					rmSync(dir, { recursive: true, force: true });
				},
			};
		},
	};
}

async function redis(): Promise<HistoryBackend> {
	const { unavailable } = await redisBackend();
	return {
		name: 'redis',
		unavailable,
		open: async () => {
			const namespace = runNamespace();
			const adapters: KeyvRedis<unknown>[] = [];
			const raw = createClient({ url: REDIS_URL });
			await raw.connect();
			return {
				connect: async () => {
					const adapter = new KeyvRedis(
						{ url: REDIS_URL, disableOfflineQueue: true },
						{ namespace, throwOnErrors: true, throwOnConnectError: true },
					);
					adapters.push(adapter);
					return new Keyv({ store: adapter, namespace, useKeyPrefix: false, throwOnErrors: true });
				},
				dumpRaw: async () => {
					const keys = await raw.keys(`${namespace}*`);
					const values = await Promise.all(keys.map(async (key) => raw.get(key)));
					return keys.map((key, i) => `${key}=${values[i] ?? ''}`).join('\n');
				},
				cleanup: async () => {
					const keys = await raw.keys(`${namespace}*`);
					if (keys.length > 0) await raw.del(keys);
					raw.destroy();
					for (const adapter of adapters) if (adapter.client.isOpen) await adapter.disconnect();
				},
			};
		},
	};
}

async function postgres(): Promise<HistoryBackend> {
	const { unavailable } = await postgresBackend();
	return {
		name: 'postgres',
		unavailable,
		open: async () => {
			const namespace = runNamespace();
			const pools: pg.Pool[] = [];
			const raw = new pg.Client({ connectionString: POSTGRES_URL });
			await raw.connect();
			return {
				connect: async () => {
					const pool = openPostgresPool(POSTGRES_URL, {
						deadlineMs: 4000,
						max: 10,
						onError: () => undefined,
					});
					pools.push(pool);
					return new Keyv({ store: new PostgresStore(pool, new StoreDeadline(4000)), namespace, throwOnErrors: true });
				},
				dumpRaw: async () => {
					const { rows } = await raw.query<{ key: string; value: string }>(
						'SELECT key, value FROM keyv WHERE key LIKE $1',
						[`${namespace}%`],
					);
					return rows.map((row) => `${row.key}=${row.value}`).join('\n');
				},
				cleanup: async () => {
					await raw.query('DELETE FROM keyv WHERE key LIKE $1', [`${namespace}%`]);
					await raw.end();
					for (const pool of pools) await pool.end();
				},
			};
		},
	};
}

export async function historyBackends(): Promise<HistoryBackend[]> {
	return [sqlite(), await redis(), await postgres()];
}
