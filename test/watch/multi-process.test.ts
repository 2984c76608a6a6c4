import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { createClient } from '@redis/client';
import pg from 'pg';
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { alertNonce } from '../../src/watch/alert-job.js';
import { createWatchStore } from '../../src/watch/watch-store.js';
import { freshAlertState, WATCH_SCHEMA_VERSION } from '../../src/watch/watch-record.js';
import { postgresBackend, POSTGRES_URL, redisBackend, REDIS_URL } from '../links/backends.js';
import { GUILD, TEXT, VOICE } from './support.js';
import { statChannelRecord } from './stat-channel-records.js';

/** A second stat channel, showing a figure that changes every minute. */
const BUSY = '200000000000000004';
const WATCH = new URL('./watch-process.ts', import.meta.url).pathname;
const START = Date.parse('2026-11-23T10:00:00Z');
const END = Date.parse('2026-11-23T11:00:00Z');
const runPrefix = () => `wat${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

interface Sent {
	channelId: string;
	name?: string;
	nonce?: string;
	at: number;
}

/** A process that claims the alert's firing and is killed (SIGKILL) before it posts. */
async function runDying(url: string, prefix: string): Promise<void> {
	const child = fork(WATCH, [url, prefix, String(START), String(END), 'dies'], { execArgv: ['--import', 'tsx'] });
	try {
		await once(child, 'message');
		const claimed = new Promise<void>((resolve) => {
			child.on('message', (message: { claimed?: boolean }) => {
				if (message.claimed) resolve();
			});
		});
		child.send({ startAt: Date.now() });
		await claimed;
	} finally {
		child.kill('SIGKILL');
		if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
	}
}

/** Two processes running the watchers on one store from `start` to END; every rename and post they sent. */
async function runTwo(url: string, prefix: string, start = START) {
	const renames: Sent[][] = [[], []];
	const posts: Sent[][] = [[], []];
	const children = await Promise.all(
		[0, 1].map(async (index) => {
			const child = fork(WATCH, [url, prefix, String(start), String(END)], { execArgv: ['--import', 'tsx'] });
			const done = new Promise<void>((resolve, reject) => {
				child.on('message', (message: { rename?: Sent; post?: Sent; done?: boolean }) => {
					if (message.rename) renames[index]?.push(message.rename);
					if (message.post) posts[index]?.push(message.post);
					if (message.done) resolve();
				});
				child.once('exit', (code) => reject(new Error(`watch process exited with ${code} before it was done`)));
			});
			done.catch(() => undefined);
			await once(child, 'message');
			return { child, done };
		}),
	);
	const startAt = Date.now() + 300;
	for (const { child } of children) child.send({ startAt });
	try {
		await Promise.all(children.map(async ({ done }) => done));
	} finally {
		for (const { child } of children) if (child.exitCode === null) child.kill();
	}
	return { renames: renames.flat(), posts: posts.flat() };
}

async function removeRun(url: string, prefix: string): Promise<void> {
	if (url.startsWith('redis')) {
		const client = createClient({ url });
		await client.connect();
		const keys = await client.keys(`${prefix}*`);
		if (keys.length > 0) await client.del(keys);
		client.destroy();
		return;
	}
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	await client.query('DELETE FROM keyv WHERE key LIKE $1', [`${prefix}%`]);
	await client.query('DELETE FROM adstats_claims WHERE key LIKE $1', [`${prefix}%`]);
	await client.end();
}

const targets = [
	{ ...(await redisBackend()), url: REDIS_URL },
	{ ...(await postgresBackend()), url: POSTGRES_URL },
];

for (const target of targets) {
	describe(`stat channels and alerts in two processes on one ${target.name}`, () => {
		if (target.unavailable) {
			if (process.env.CI === 'true')
				test(`${target.name} is reachable in CI`, () => assert.fail(target.unavailable ?? ''));
			else test('skipped', (t) => t.skip(target.unavailable ?? ''));
			return;
		}

		// Redis expires claims by its own clock, so there the claim of the killed process would hold for 5 real
		// minutes; PostgreSQL's follow the processes' clocks, which these tests speed up.
		if (target.name === 'postgres') {
			test('a process killed after claiming a firing never posts it; another posts it once the claim expires', async () => {
				const prefix = runPrefix();
				const stores = await openStores(target.url, { namespacePrefix: prefix });
				try {
					const watch = createWatchStore(stores, createKeyedMutex());
					await watch.alerts.put({
						v: WATCH_SCHEMA_VERSION,
						id: 'k1',
						guildId: GUILD,
						channelId: TEXT,
						kind: 'sends-milestone',
						threshold: 4000,
						createdBy: '1',
						createdAt: START,
						guildLocale: 'en-US',
						paused: null,
						state: freshAlertState(),
					});
					await runDying(target.url, prefix);
					const pending = await watch.alerts.get(GUILD, 'k1');
					assert.equal(pending?.state.pending?.number, 1, 'the firing was decided and left pending');
					const { posts } = await runTwo(target.url, prefix, START + 10 * 60_000);
					assert.equal(posts.length, 1, JSON.stringify(posts));
					assert.equal(posts[0]?.nonce, alertNonce({ guildId: GUILD, id: 'k1' }, 1));
					assert.equal((await watch.alerts.get(GUILD, 'k1'))?.state.pending, null);
				} finally {
					await stores.close();
					await removeRun(target.url, prefix);
				}
			});
		}

		test('stat channels are renamed once per change and at most twice in 10 minutes, an alert posted once, in total', async (t) => {
			const prefix = runPrefix();
			const stores = await openStores(target.url, { namespacePrefix: prefix });
			try {
				const watch = createWatchStore(stores, createKeyedMutex());
				await watch.statChannels.put({
					v: WATCH_SCHEMA_VERSION,
					guildId: GUILD,
					channelId: VOICE,
					figure: 'sends-all',
					createdBy: '1',
					createdAt: START,
					guildLocale: 'de',
					paused: null,
					name: null,
					renames: [],
					blockedUntil: 0,
					pending: null,
				});
				await watch.statChannels.put(statChannelRecord(GUILD, BUSY, { figure: 'sends-today', createdAt: START }));
				await watch.alerts.put({
					v: WATCH_SCHEMA_VERSION,
					id: 'm1',
					guildId: GUILD,
					channelId: TEXT,
					kind: 'sends-milestone',
					threshold: 4000,
					createdBy: '1',
					createdAt: START,
					guildLocale: 'en-US',
					paused: null,
					state: freshAlertState(),
				});
				const { renames, posts } = await runTwo(target.url, prefix);
				assert.deepEqual(
					renames.filter((rename) => rename.channelId === VOICE).map((rename) => rename.name),
					['Sendungen gesamt: 4.321'],
				);
				const busy = renames.filter((rename) => rename.channelId === BUSY).sort((a, b) => a.at - b.at);
				t.diagnostic(
					busy.map((rename) => `${new Date(rename.at).toISOString().slice(11, 19)} ${rename.name}`).join(', '),
				);
				assert.ok(busy.length >= 4, `${busy.length} renames of a figure changing every minute in an hour`);
				assert.equal(new Set(busy.map((rename) => rename.name)).size, busy.length, 'no name sent twice');
				for (const rename of busy) {
					const within = busy.filter((other) => other.at >= rename.at && other.at < rename.at + 10 * 60_000);
					assert.ok(within.length <= 2, `three renames within 10 minutes from ${new Date(rename.at).toISOString()}`);
				}
				assert.equal(posts.length, 1, JSON.stringify(posts));
				assert.equal(posts[0]?.channelId, TEXT);
				const stored = await watch.alerts.get(GUILD, 'm1');
				assert.equal(stored?.state.firings, 1);
				assert.equal(stored?.state.pending, null);
			} finally {
				await stores.close();
				await removeRun(target.url, prefix);
			}
		});
	});
}
