import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import KeyvSqlite from '@keyv/sqlite';
import { openCoordinator } from '../../src/store/coordination.js';
import { openStores } from '../../src/store/open-stores.js';
import type { ClaimResult, Coordinator } from '../../src/store/claim-types.js';
import { POSTGRES_URL, REDIS_URL, postgresBackend, redisBackend } from '../links/backends.js';
import { waitUntil } from '../links/wait-until.js';

const RACER = new URL('./claim-racer.ts', import.meta.url).pathname;
const RACE_KEYS = 50;

const runPrefix = (label: string) => `${label}${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

function claimed(result: ClaimResult): asserts result is Extract<ClaimResult, { claimed: true }> {
	assert.equal(result.claimed, true, 'expected the claim to be taken');
}

async function racer(
	storeUrl: string,
	prefix: string,
	order: 'forward' | 'reverse',
): Promise<{ child: ChildProcess; won: Promise<string[]> }> {
	const child = fork(RACER, [storeUrl, prefix, String(RACE_KEYS), order], { execArgv: ['--import', 'tsx'] });
	const won = new Promise<string[]>((resolve, reject) => {
		child.on('message', (message: { won?: string[] }) => {
			if (message.won) resolve(message.won);
		});
		child.once('exit', (code) => reject(new Error(`racer exited with ${code} before reporting`)));
	});
	won.catch(() => undefined);
	await once(child, 'message');
	return { child, won };
}

/** Each key claimed by exactly one of two processes racing for all of them. */
async function raceTwoProcesses(storeUrl: string, t: { diagnostic: (message: string) => void }): Promise<void> {
	const prefix = runPrefix('race');
	const racers = await Promise.all([racer(storeUrl, prefix, 'forward'), racer(storeUrl, prefix, 'reverse')]);
	const startAt = Date.now() + 200;
	for (const { child } of racers) child.send({ startAt });
	const [first, second] = await Promise.all(racers.map(async ({ won }) => won));
	assert.ok(first && second);
	const both = first.filter((key) => second.includes(key));
	assert.deepEqual(both, [], 'no key is claimed twice');
	assert.equal(new Set([...first, ...second]).size, RACE_KEYS, 'every key is claimed once');
	t.diagnostic(`split ${first.length}/${second.length}`);
}

interface Target {
	name: string;
	unavailable: string | null;
	url: () => string;
	/** Claims expire by the injected clock (false: by the store's own clock). */
	injectedClock: boolean;
	cleanup?: () => void;
}

const sqliteDir = mkdtempSync(join(tmpdir(), 'claims-'));
const targets: Target[] = [
	{
		name: 'sqlite',
		unavailable: null,
		url: () => `sqlite://${join(sqliteDir, 'bot.sqlite')}`,
		injectedClock: true,
		cleanup: () => rmSync(sqliteDir, { recursive: true, force: true }),
	},
	{ name: 'redis', unavailable: (await redisBackend()).unavailable, url: () => REDIS_URL, injectedClock: false },
	{
		name: 'postgres',
		unavailable: (await postgresBackend()).unavailable,
		url: () => POSTGRES_URL,
		injectedClock: true,
	},
];

for (const target of targets) {
	if (target.unavailable) {
		if (process.env.CI === 'true')
			test(`${target.name} is reachable in CI`, () => assert.fail(target.unavailable ?? ''));
		else test(`claims on ${target.name}`, (t) => t.skip(target.unavailable ?? ''));
		continue;
	}

	describe(`claims on ${target.name}`, () => {
		let clock = 1_000_000;
		const open = async (t: { after: (fn: () => Promise<void>) => void }, prefix: string): Promise<Coordinator> => {
			const coordinator = await openCoordinator(target.url(), { namespacePrefix: prefix, now: () => clock });
			t.after(async () => coordinator.close());
			return coordinator;
		};

		if (target.name !== 'sqlite') {
			test('two processes racing for 50 keys: each key is claimed exactly once', async (t) => {
				await raceTwoProcesses(target.url(), t);
			});
		}

		test('a held claim is refused with the time left; it is free again once expired', async (t) => {
			const coordinator = await open(t, runPrefix('expiry'));
			const ttl = target.injectedClock ? 10_000 : 300;
			claimed(await coordinator.claim('k', ttl));
			const refused = await coordinator.claim('k', ttl);
			assert.equal(refused.claimed, false);
			if (!refused.claimed)
				assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= ttl, `${refused.retryAfterMs}`);
			if (target.injectedClock) {
				clock += 4000;
				const later = await coordinator.claim('k', ttl);
				assert.ok(!later.claimed && later.retryAfterMs === 6000, 'the injected clock decides the time left');
				clock += 6000;
				claimed(await coordinator.claim('k', ttl));
			} else {
				await waitUntil(async () => (await coordinator.claim('k', ttl)).claimed, 5000, 50);
			}
		});

		test("keys lists this prefix's claims, expired SQL rows too, never another prefix's; remove frees one", async (t) => {
			// A wildcard of the store's own pattern language in the prefix must match only itself.
			const wildcard = target.name === 'redis' ? '?' : '_';
			const prefix = runPrefix('keys');
			const coordinator = await open(t, `${prefix}${wildcard}`);
			const neighbour = await open(t, `${prefix}Z`);
			const ttl = target.injectedClock ? 1000 : 60_000;
			for (const key of ['cooldown:stats:42', 'digest-send:42:2026-W14', 'lock:report:900:1']) {
				claimed(await coordinator.claim(key, ttl));
			}
			claimed(await neighbour.claim('cooldown:stats:42', ttl));
			if (target.injectedClock) clock += ttl;
			const listed = async (of: Coordinator) => {
				const keys: string[] = [];
				for await (const key of of.keys()) keys.push(key);
				return keys.sort();
			};
			assert.deepEqual(await listed(coordinator), [
				'cooldown:stats:42',
				'digest-send:42:2026-W14',
				'lock:report:900:1',
			]);
			await coordinator.remove('digest-send:42:2026-W14');
			assert.deepEqual(await listed(coordinator), ['cooldown:stats:42', 'lock:report:900:1']);
			assert.deepEqual(await listed(neighbour), ['cooldown:stats:42']);
			claimed(await coordinator.claim('digest-send:42:2026-W14', ttl));
		});

		test('release frees the key, and only its holder can release', async (t) => {
			const coordinator = await open(t, runPrefix('release'));
			const ttl = target.injectedClock ? 1000 : 200;
			const first = await coordinator.claim('k', ttl);
			claimed(first);
			await first.release();
			const second = await coordinator.claim('k', ttl);
			claimed(second);
			// The second holder's claim expires and a third takes it: the second's release must leave it alone.
			if (target.injectedClock) clock += ttl;
			else await waitUntil(expired, 5000, 20);
			const third = await coordinator.claim('k', 60_000);
			claimed(third);
			await second.release();
			const fourth = await coordinator.claim('k', 60_000);
			assert.equal(fourth.claimed, false, 'a late release by a former holder freed the current claim');

			async function expired(): Promise<boolean> {
				const attempt = await coordinator.claim('k', 60_000);
				if (attempt.claimed) await attempt.release();
				return attempt.claimed;
			}
		});

		test('keys of different prefixes do not collide', async (t) => {
			const a = await open(t, runPrefix('a'));
			const b = await open(t, runPrefix('b'));
			claimed(await a.claim('same', 60_000));
			claimed(await b.claim('same', 60_000));
		});
	});
}

test('claims in the SQLite file survive a restart', async (t) => {
	const dir = mkdtempSync(join(tmpdir(), 'claims-restart-'));
	t.after(() => rmSync(dir, { recursive: true, force: true }));
	const url = `sqlite://${join(dir, 'bot.sqlite')}`;
	const first = await openCoordinator(url);
	claimed(await first.claim('report:1', 60_000));
	await first.close();
	const reopened = await openCoordinator(url);
	t.after(async () => reopened.close());
	assert.equal((await reopened.claim('report:1', 60_000)).claimed, false);
});

test('claims and the Keyv stores written at once on one SQLite file leave it whole', async (t) => {
	// Claims once went through a second SQLite library, which did not see the stores' locks on the file:
	// interleaved WAL writes made the stores read claim tokens as their values, then "malformed".
	const dir = mkdtempSync(join(tmpdir(), 'claims-one-file-'));
	const url = `sqlite://${join(dir, 'bot.sqlite')}`;
	const stores = await openStores(url);
	const coordinator = await openCoordinator(url);
	t.after(async () => {
		await coordinator.close();
		await stores.close();
		rmSync(dir, { recursive: true, force: true });
	});
	const value = (i: number) => ({ n: i, pad: 'x'.repeat(200) });
	await Promise.all(
		Array.from({ length: 300 }, async (_, i) => {
			await stores.watch.set(`k${i % 10}`, value(i));
			const claim = await coordinator.claim(`one-file-${i}`, 60_000);
			await stores.settings.get(`k${(i + 3) % 10}`);
			if (claim.claimed) await claim.release();
		}),
	);
	for (let i = 0; i < 10; i++) assert.equal(((await stores.watch.get(`k${i}`)) as { n: number }).n % 10, i);
	const check = new KeyvSqlite({ uri: url });
	t.after(async () => check.disconnect());
	assert.deepEqual(await check.query('PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
});

after(async () => {
	for (const target of targets) target.cleanup?.();
	// Claim rows of this run (their keys carry the pid); Redis drops its claims by their TTL.
	if (!targets.find((target) => target.name === 'postgres')?.unavailable) {
		const client = new pg.Client({ connectionString: POSTGRES_URL });
		await client.connect();
		// A run of one test may never have created the table.
		await client
			.query(`DELETE FROM adstats_claims WHERE key LIKE $1`, [`%${process.pid}x%`])
			.catch((error: { code?: string }) => {
				if (error.code !== '42P01') throw error;
			});
		await client.end();
	}
});
