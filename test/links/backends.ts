// The three Keyv backends under test, each with a way to read what it really holds (to search
// for a key in clear) and a unique namespace prefix per run, so runs never collide.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import pg from 'pg';
import { openStores } from '../../src/store/open-stores.js';
import type { Stores } from '../../src/store/open-stores.js';

export const REDIS_URL = 'redis://127.0.0.1:6379';
export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface Backend {
	name: string;
	/** Why the backend cannot be used here, or null when it can. */
	unavailable: string | null;
	open(): Promise<OpenedBackend>;
}

export interface OpenedBackend {
	stores: Stores;
	/** Everything the backend holds for this run, as text (raw bytes for SQLite). */
	dumpRaw(): Promise<string>;
	/** Removes this run's data and closes the stores. */
	cleanup(): Promise<void>;
}

function runPrefix(): string {
	return `t${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;
}

async function isListening(url: string): Promise<boolean> {
	const { hostname, port } = new URL(url);
	return new Promise((resolve) => {
		const socket = connect({ host: hostname, port: Number(port) });
		socket.setTimeout(1000, () => socket.destroy());
		socket.once('connect', () => {
			socket.end();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
		socket.once('close', () => resolve(false));
	});
}

export const sqliteBackend: Backend = {
	name: 'sqlite',
	unavailable: null,
	open: async () => {
		const dir = mkdtempSync(join(tmpdir(), 'links-sqlite-'));
		const file = join(dir, 'nested', 'bot.sqlite');
		const stores = await openStores(`sqlite://${file}`);
		return {
			stores,
			dumpRaw: async () =>
				[file, `${file}-wal`]
					.filter((path) => existsSync(path))
					.map((path) => readFileSync(path).toString('latin1'))
					.join('\n'),
			cleanup: async () => {
				await stores.close();
				rmSync(dir, { recursive: true, force: true });
			},
		};
	},
};

export async function redisBackend(): Promise<Backend> {
	return {
		name: 'redis',
		unavailable: (await isListening(REDIS_URL)) ? null : `redis not reachable at ${REDIS_URL}`,
		open: async () => {
			const prefix = runPrefix();
			const stores = await openStores(REDIS_URL, { namespacePrefix: prefix });
			const raw = createClient({ url: REDIS_URL });
			await raw.connect();
			return {
				stores,
				dumpRaw: async () => {
					const keys = await raw.keys(`${prefix}*`);
					const values = await Promise.all(keys.map(async (key) => raw.get(key)));
					return keys.map((key, i) => `${key}=${values[i] ?? ''}`).join('\n');
				},
				cleanup: async () => {
					const keys = await raw.keys(`${prefix}*`);
					if (keys.length > 0) await raw.del(keys);
					raw.destroy();
					await stores.close();
				},
			};
		},
	};
}

export async function postgresBackend(): Promise<Backend> {
	return {
		name: 'postgres',
		unavailable: (await isListening(POSTGRES_URL)) ? null : `postgres not reachable at ${POSTGRES_URL}`,
		open: async () => {
			const prefix = runPrefix();
			const stores = await openStores(POSTGRES_URL, { namespacePrefix: prefix });
			const raw = new pg.Client({ connectionString: POSTGRES_URL });
			await raw.connect();
			return {
				stores,
				dumpRaw: async () => {
					const { rows } = await raw.query<{ key: string; value: string }>(
						'SELECT key, value FROM keyv WHERE key LIKE $1',
						[`${prefix}%`],
					);
					return rows.map((row) => `${row.key}=${row.value}`).join('\n');
				},
				cleanup: async () => {
					await raw.query('DELETE FROM keyv WHERE key LIKE $1', [`${prefix}%`]);
					await raw.end();
					await stores.close();
				},
			};
		},
	};
}
