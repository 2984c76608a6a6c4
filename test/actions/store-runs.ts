// The core actions' world on loopback: the Discord stand-in and the real stats service outside, and the bot's own
// services opened with openBotServices on SQLite, Redis or PostgreSQL as the bot opens them. A run on a shared store
// has a namespace prefix of its own, removed at the end, and can open its services twice (two processes on one
// store). `dumpRaw` reads every byte the run stored, claims included, so a test can search it for a key in clear.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import pg from 'pg';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { openBotServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openStatsStore, seedDemoAccount, startStatsServer } from '../../src/service/index.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { CLAIMS_TABLE } from '../../src/store/claim-sql.js';
import { sharedStores, type SharedStore } from '../discord/shared-stores.js';

/** SQLite (a file of the run's own), or Redis and PostgreSQL as test/discord/shared-stores.ts finds them. */
export type StoreTarget = { name: 'sqlite'; unavailable: null; url: null } | SharedStore;

export async function storeTargets(): Promise<StoreTarget[]> {
	return [{ name: 'sqlite', unavailable: null, url: null }, ...(await sharedStores())];
}

/** Discord and the stats service: what the actions reach over HTTP. */
export interface Outside {
	sandbox: DiscordSandbox;
	serviceUrl: string;
	/** A new account in the stats service with 120 days of activity; its API key. */
	createAccount(name: string): string;
	close(): Promise<void>;
}

export async function startOutside(options: { guildCount?: number } = {}): Promise<Outside> {
	const dir = mkdtempSync(join(tmpdir(), 'adstats-actions-service-'));
	const serviceStore = openStatsStore(join(dir, 'service.sqlite'));
	const service = await startStatsServer({ store: serviceStore, port: 0, rateLimitPerMinute: 0 });
	const sandbox = await startDiscordSandbox({ guildCount: options.guildCount ?? 1 });
	return {
		sandbox,
		serviceUrl: service.url,
		createAccount: (name) => seedDemoAccount(serviceStore, { name, days: 120 }).apiKey,
		close: async () => {
			await sandbox.close();
			await service.close();
			serviceStore.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** One process's services on the run's store. */
export interface OpenedCore {
	ctx: CoreContext;
	/** Every log line this process wrote. */
	logs: string[];
}

export interface StoreRun {
	name: StoreTarget['name'];
	/** The environment the run's config is read from, and its namespace prefix: what a child process opens it with. */
	env: Record<string, string>;
	namespacePrefix: string | undefined;
	/** Opens the bot's services on the run's store once more, as another process would (shared stores only). */
	open(): Promise<OpenedCore>;
	/** Every key and value the run stored, as text (the file's bytes for SQLite). */
	dumpRaw(): Promise<string>;
	/** Closes every opened core and removes the run's data. */
	cleanup(): Promise<void>;
}

export async function startStoreRun(target: StoreTarget, outside: Outside): Promise<StoreRun> {
	const dir = mkdtempSync(join(tmpdir(), 'adstats-actions-'));
	const prefix = `act${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;
	const storeUrl = target.url ?? `sqlite://${join(dir, 'bot.sqlite')}`;
	const env = {
		DISCORD_TOKEN: outside.sandbox.token,
		DISCORD_APPLICATION_ID: outside.sandbox.applicationId,
		DISCORD_API_URL: outside.sandbox.apiUrl,
		STATS_API_BASE_URL: outside.serviceUrl,
		STORE_URL: storeUrl,
		// Both processes of a run seal and open keys with the same secret, as a deployment's do.
		LINK_SECRET: randomBytes(32).toString('hex'),
		CHART_RENDERER: 'none',
		HISTORY_SAMPLING: 'off',
		LOG_LEVEL: 'debug',
	};
	const config = loadConfig(env, 'bot');
	const namespacePrefix = target.name === 'sqlite' ? undefined : prefix;
	const closers: (() => Promise<void>)[] = [];
	const raw = target.name === 'sqlite' ? null : await rawAccess(target.name, storeUrl, prefix);
	return {
		name: target.name,
		env,
		namespacePrefix,
		open: async () => {
			// One process owns a SQLite file: a second set of services on it is not something the bot does.
			if (target.name === 'sqlite' && closers.length > 0) throw new Error('a SQLite store has one process');
			const logs: string[] = [];
			const log = createLogger('debug', { write: (line: string) => logs.push(line) });
			// No background job on the real clock: the tests call the jobs' work themselves, with their own clock and
			// settings (a webhook queue read by the real job, without the test's allow list, took its attempt).
			const services = await openBotServices(config, log, { namespacePrefix, backgroundJobs: false });
			closers.push(() => services.close());
			return { ctx: services.ctx, logs };
		},
		dumpRaw: async () =>
			raw
				? raw.dump()
				: readdirSync(dir)
						.map((name) => readFileSync(join(dir, name)).toString('latin1'))
						.join('\n'),
		cleanup: async () => {
			for (const close of closers) await close();
			await raw?.remove();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

interface RawAccess {
	dump(): Promise<string>;
	remove(): Promise<void>;
}

async function rawAccess(name: SharedStore['name'], url: string, prefix: string): Promise<RawAccess> {
	if (name === 'redis') {
		const client = createClient({ url });
		await client.connect();
		return {
			dump: async () => {
				const keys = await client.keys(`${prefix}*`);
				const lines: string[] = [];
				for (const key of keys) {
					// Every entry the bot writes is a string; another type would be data this search cannot see.
					const type = await client.type(key);
					// A key with a TTL (a cooldown, a claim) can expire between KEYS and this read: nothing to search.
					if (type === 'none') continue;
					if (type !== 'string') throw new Error(`${key} is a ${type}: the raw search reads strings only`);
					lines.push(`${key}=${(await client.get(key)) ?? ''}`);
				}
				return lines.join('\n');
			},
			remove: async () => {
				const keys = await client.keys(`${prefix}*`);
				if (keys.length > 0) await client.del(keys);
				client.destroy();
			},
		};
	}
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	// The claims table appears with the first claim on this database; a run that failed early may find none.
	const tables = async () => {
		const names = ['keyv', CLAIMS_TABLE];
		const { rows } = await client.query<{ name: string | null }>(
			'SELECT to_regclass(n) AS name FROM unnest($1::text[]) n',
			[names],
		);
		return rows.flatMap((row) => (row.name ? [row.name] : []));
	};
	return {
		dump: async () => {
			const lines: string[] = [];
			for (const table of await tables()) {
				const { rows } = await client.query<Record<string, unknown>>(`SELECT * FROM ${table} WHERE key LIKE $1`, [
					`${prefix}%`,
				]);
				lines.push(...rows.map((row) => JSON.stringify(row)));
			}
			return lines.join('\n');
		},
		remove: async () => {
			for (const table of await tables()) await client.query(`DELETE FROM ${table} WHERE key LIKE $1`, [`${prefix}%`]);
			await client.end();
		},
	};
}
