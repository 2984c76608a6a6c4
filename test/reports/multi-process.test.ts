import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createClient } from '@redis/client';
import pg from 'pg';
import { createLinkStore } from '../../src/links/link-store.js';
import { createReportStore } from '../../src/reports/report-store.js';
import { reportDelayMs } from '../../src/reports/schedule.js';
import { openStores } from '../../src/store/open-stores.js';
import { postgresBackend, POSTGRES_URL, redisBackend, REDIS_URL } from '../links/backends.js';
import { makeReport } from './records.js';

const JOBS = new URL('./jobs-process.ts', import.meta.url).pathname;
const at = (iso: string) => Date.parse(iso);
const runPrefix = (label: string) => `${label}${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

interface Post {
	channelId: string;
	nonce: string;
	at: number;
}
interface Sample {
	apiKey: string;
	at: number;
}

/** Two processes running the same jobs on one store from `start` to `end`; every post and sample they report. */
async function runTwo(
	mode: 'reports' | 'sampler',
	url: string,
	prefix: string,
	start: number,
	end: number,
	secret: Buffer,
) {
	const posts: Post[][] = [[], []];
	const samples: Sample[][] = [[], []];
	const children = await Promise.all(
		[0, 1].map(async (index) => {
			const child = fork(JOBS, [mode, url, prefix, String(start), String(end), secret.toString('hex')], {
				execArgv: ['--import', 'tsx'],
			});
			const done = new Promise<void>((resolve, reject) => {
				child.on('message', (message: { post?: Post; sample?: Sample; done?: boolean }) => {
					if (message.post) posts[index]?.push(message.post);
					if (message.sample) samples[index]?.push(message.sample);
					if (message.done) resolve();
				});
				child.once('exit', (code) => reject(new Error(`jobs process exited with ${code} before it was done`)));
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
	return { posts, samples };
}

/** Removes what a run left under its prefix: store entries and claims (Redis would expire the claims anyway). */
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
	describe(`background jobs in two processes on one ${target.name}`, () => {
		if (target.unavailable) {
			if (process.env.CI === 'true')
				test(`${target.name} is reachable in CI`, () => assert.fail(target.unavailable ?? ''));
			else test('skipped', (t) => t.skip(target.unavailable ?? ''));
			return;
		}

		test('each report is posted exactly once per due time, the one missed before start late', async (t) => {
			const prefix = runPrefix('rep');
			const stores = await openStores(target.url, { namespacePrefix: prefix });
			try {
				const reports = createReportStore(stores);
				await reports.put(makeReport({ channelId: '1', hour: 9, timezone: 'UTC' }));
				await reports.put(makeReport({ channelId: '2', hour: 12, timezone: 'Europe/Berlin' }));
				await reports.put(
					makeReport({ channelId: '3', every: 'weekly', weekday: 'mon', hour: 10, timezone: 'America/New_York' }),
				);
				const { posts } = await runTwo(
					'reports',
					target.url,
					prefix,
					at('2026-11-23T09:30:00Z'),
					at('2026-11-24T12:00:00Z'),
					randomBytes(32),
				);
				const all = [...(posts[0] ?? []), ...(posts[1] ?? [])];
				t.diagnostic(`split ${posts[0]?.length}/${posts[1]?.length}`);
				// The reports' server posts 20 minutes after each due time (reportDelayMs); 09:20 was missed before start.
				assert.equal(reportDelayMs(makeReport()), 20 * 60_000);
				assert.deepEqual(all.map((post) => `${post.channelId} ${new Date(post.at).toISOString()}`).sort(), [
					'1 2026-11-23T09:30:00.000Z',
					'1 2026-11-24T09:20:00.000Z',
					'2 2026-11-23T11:20:00.000Z',
					'2 2026-11-24T11:20:00.000Z',
					'3 2026-11-23T15:20:00.000Z',
				]);
				assert.equal(new Set(all.map((post) => post.nonce)).size, all.length, 'one nonce per due time');
			} finally {
				await stores.close();
				await removeRun(target.url, prefix);
			}
		});

		test('the sampler takes one snapshot of every linked account per UTC day in total', async (t) => {
			const prefix = runPrefix('smp');
			const secret = randomBytes(32);
			const stores = await openStores(target.url, { namespacePrefix: prefix });
			const keys: string[] = [];
			try {
				const links = createLinkStore({ keyv: stores.links, secret, verifyKey: async () => ({ accountName: 'acme' }) });
				for (let index = 0; index < 4; index += 1) {
					const userKey = `user-key-${index}-${randomBytes(8).toString('hex')}`;
					const serverKey = `server-key-${index}-${randomBytes(8).toString('hex')}`;
					await links.linkUser(`40000000000000000${index}`, userKey);
					await links.linkServer(`50000000000000000${index}`, serverKey, '1');
					keys.push(userKey, serverKey);
				}
				const { samples } = await runTwo(
					'sampler',
					target.url,
					prefix,
					at('2026-11-23T10:00:00Z'),
					at('2026-11-24T12:00:00Z'),
					secret,
				);
				const all = [...(samples[0] ?? []), ...(samples[1] ?? [])];
				t.diagnostic(`split ${samples[0]?.length}/${samples[1]?.length}`);
				const perDay = all.map((sample) => `${sample.apiKey} ${new Date(sample.at).toISOString().slice(0, 10)}`);
				assert.equal(new Set(perDay).size, perDay.length, 'no account sampled twice on one day');
				assert.deepEqual(
					perDay
						.filter((entry) => entry.endsWith('2026-11-23'))
						.map((entry) => entry.split(' ')[0])
						.sort(),
					[...keys].sort(),
					'every account sampled on the first day',
				);
				assert.ok(all.every((sample) => keys.includes(sample.apiKey)));
			} finally {
				await stores.close();
				await removeRun(target.url, prefix);
			}
		});
	});
}
