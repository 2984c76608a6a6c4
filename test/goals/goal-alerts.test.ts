// The goal kinds of /alert with two bot processes on one Redis (and PostgreSQL) store under an injected clock:
// each fires once in total, in the server's language, with the figure, the target and the forecast.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { createClient } from '@redis/client';
import pg from 'pg';
import { GOALS_SCHEMA_VERSION, goalsKey } from '../../src/goals/goal-record.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { alertNonce } from '../../src/watch/alert-job.js';
import { createWatchStore } from '../../src/watch/watch-store.js';
import { freshAlertState, WATCH_SCHEMA_VERSION, type AlertKind } from '../../src/watch/watch-record.js';
import { postgresBackend, POSTGRES_URL, redisBackend, REDIS_URL } from '../links/backends.js';
import { GUILD, TEXT } from '../watch/support.js';

const PROCESS = new URL('./goal-alert-process.ts', import.meta.url).pathname;
// A Monday: the week's goal starts today, the month's is 23 days in.
const START = Date.parse('2026-11-23T10:00:00Z');
const END = Date.parse('2026-11-23T11:00:00Z');
const runPrefix = () => `goa${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

interface Post {
	channelId: string;
	nonce?: string;
	at: number;
	description: string;
}

async function runTwo(url: string, prefix: string): Promise<Post[]> {
	const posts: Post[] = [];
	const children = await Promise.all(
		[0, 1].map(async () => {
			const child = fork(PROCESS, [url, prefix, String(START), String(END)], { execArgv: ['--import', 'tsx'] });
			const done = new Promise<void>((resolve, reject) => {
				child.on('message', (message: { post?: Post; done?: boolean }) => {
					if (message.post) posts.push(message.post);
					if (message.done) resolve();
				});
				child.once('exit', (code) => reject(new Error(`process exited with ${code} before it was done`)));
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
	return posts;
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
	describe(`goal alerts in two processes on one ${target.name}`, () => {
		if (target.unavailable) {
			if (process.env.CI === 'true')
				test(`${target.name} is reachable in CI`, () => assert.fail(target.unavailable ?? ''));
			else test('skipped', (t) => t.skip(target.unavailable ?? ''));
			return;
		}

		test('goal-reached and goal-at-risk each post once, in the server language, with figure, target and forecast', async () => {
			const prefix = runPrefix();
			const stores = await openStores(target.url, { namespacePrefix: prefix });
			try {
				const watch = createWatchStore(stores, createKeyedMutex());
				const alert = (id: string, kind: AlertKind, guildLocale: string) =>
					watch.alerts.put({
						v: WATCH_SCHEMA_VERSION,
						id,
						guildId: GUILD,
						channelId: TEXT,
						kind,
						threshold: 0,
						createdBy: '1',
						createdAt: START,
						guildLocale,
						paused: null,
						state: freshAlertState(),
					});
				await alert('gr', 'goal-reached', 'en-US');
				await alert('gk', 'goal-at-risk', 'de');
				// This week (from today, Monday): 300 is reached 30 minutes in. This month: 22 × 100 done, 7 days of
				// 100 to come, no scatter: the band's high end, about 3,000, is far below 100,000.
				await stores.watch.set(goalsKey({ scope: 'server', guildId: GUILD }), {
					v: GOALS_SCHEMA_VERSION,
					goals: [
						{ metric: 'sends', period: 'month', target: 100_000, setBy: '1', setAt: START },
						{ metric: 'sends', period: 'week', target: 300, setBy: '1', setAt: START },
					],
				});
				const posts = await runTwo(target.url, prefix);
				assert.equal(posts.length, 2, JSON.stringify(posts));
				const reached = posts.find((post) => post.nonce === alertNonce({ guildId: GUILD, id: 'gr' }, 1));
				const atRisk = posts.find((post) => post.nonce === alertNonce({ guildId: GUILD, id: 'gk' }, 1));
				assert.ok(reached && atRisk, JSON.stringify(posts));
				assert.match(reached.description, /^sends this week: 3\d\d reached the target of 300\.$/u);
				assert.ok(reached.at >= START + 30 * 60_000, 'not before the figure reached the target');
				// At the day's first evaluation: 2,200 before today plus today so far (which that evaluation's time
				// decides: a loaded machine evaluates a few minutes in), + what is left of today's 100 + 7 × 100 = 3,000,
				// no scatter in the 28 days.
				assert.match(
					atRisk.description,
					/^Sendungen diesen Monat: bisher 2\.2\d\d, auf Kurs zu 3\.000 \(3\.000–3\.000\), unter dem Zielwert 100\.000\.$/u,
				);
				for (const id of ['gr', 'gk']) {
					const stored = await watch.alerts.get(GUILD, id);
					assert.equal(stored?.state.pending, null);
					assert.equal(stored?.state.firings, 1);
				}
			} finally {
				await stores.close();
				await removeRun(target.url, prefix);
			}
		});
	});
}
