import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient } from '@redis/client';
import pg from 'pg';
import { historyAccountId } from '../../src/history/account-id.js';
import { createLinkStore } from '../../src/links/link-store.js';
import { openStores } from '../../src/store/open-stores.js';
import type { Stores } from '../../src/store/open-stores.js';
import { createWebStore } from '../../src/web/auth/sessions.js';
import { POSTGRES_URL, REDIS_URL, postgresBackend, redisBackend } from '../links/backends.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { openWebhook } from '../../src/webhooks/webhook-delivery.js';
import { webhookKey, type WebhookRecord } from '../../src/webhooks/webhook-record.js';
import { newSigningSecret, sealerOf } from '../../src/webhooks/webhook-seal.js';
import { webhookStoreOf } from '../../src/webhooks/webhook-store.js';

const CLI = new URL('../../src/app/links-cli.ts', import.meta.url).pathname;
// Resolved here: the CLI runs in a fresh directory (no .env), where `tsx` alone would not resolve.
const TSX = import.meta.resolve('tsx');
const SECRET_A = Buffer.alloc(32, 0xa1);
const SECRET_B = Buffer.alloc(32, 0xb2);
const KEYS = ['sk_live_Q7fJx2LmP9wRt4ZkV8nB', 'sk_live_Hh3Nc6Yd1Ue5Wq0Xa7Gp', 'sk_live_Zz9Yy8Xx7Ww6Vv5Uu4Tt'];

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

async function links(args: string[], env: Record<string, string>): Promise<Run> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			['--import', TSX, CLI, ...args],
			// No inherited STORE_URL or secrets, and no .env: the test's cwd is a fresh directory.
			{ env: { PATH: process.env.PATH ?? '', ...env }, cwd: dir },
			(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

const figures = (stdout: string) =>
	Object.fromEntries(
		stdout
			.trim()
			.split('\n')
			.filter((line) => /^[a-z ]+: \d+$/.test(line))
			.map((line) => {
				const [name = '', value = ''] = line.split(': ');
				return [name, Number(value)];
			}),
	);

const assertNoKey = (run: Run) => {
	for (const key of KEYS) assert.ok(!`${run.stdout}${run.stderr}`.includes(key), 'a key was printed');
};

const dir = mkdtempSync(join(tmpdir(), 'links-cli-'));
const file = join(dir, 'bot.sqlite');
const sqliteUrl = `sqlite://${file}`;
const hex = (secret: Buffer) => secret.toString('hex');
/** The public link a community manager turned on for server 900 before the move. */
let publicToken = '';
let loginState = '';
/** `links count` on the store above: the original four lines, then one per registered data kind. */
const COUNT_OUTPUT = [
	'links: 2',
	'server links: 1',
	'history accounts: 2',
	'reports: 1',
	'settings: 1',
	'public links: 1',
	'public link tokens: 1',
	'dashboard sessions: 0',
	'stat channels: 0',
	'alerts: 0',
	'boards: 1',
	'member goals: 0',
	'server goals: 0',
	'member notes: 0',
	'server notes: 0',
	'digests: 0',
	'forgotten members: 0',
	'servers marked left: 0',
	'webhooks: 0',
	'webhook deliveries waiting: 0',
	'webhook delivery logs: 0',
	'unregistered: 1',
	'',
].join('\n');

const linkStoreOn = (stores: Stores, secret: Buffer, previousSecret: Buffer | null = null) =>
	createLinkStore({ keyv: stores.links, secret, previousSecret, verifyKey: async () => ({ accountName: 'acme' }) });

before(async () => {
	const stores = await openStores(sqliteUrl);
	const store = linkStoreOn(stores, SECRET_A);
	await store.linkUser('1', KEYS[0] ?? '');
	await store.linkUser('2', KEYS[1] ?? '');
	await store.linkServer('900', KEYS[2] ?? '', '1');
	await stores.history.set(historyAccountId('acme'), { samples: [1, 2] });
	await stores.history.set(historyAccountId('other'), { samples: [3] }, 86_400_000);
	await stores.reports.set('report:900:1', { guildId: '900' });
	await stores.settings.set('900', { language: 'de' });
	await stores.watch.set('board:900:5', { guildId: '900', createdBy: '1' });
	// What no registered kind claims is still copied, as it is: a migration loses nothing.
	await stores.watch.set('mystery:1', { kept: true });
	// Transient: neither counted nor copied.
	await stores.cache.set('stats:x', { not: 'migrated' });
	await stores.watch.set('rename-budget:5', { renames: [1], blockedUntil: 0 }, 600_000);
	const web = createWebStore(stores.web);
	loginState = await web.createLoginState('/');
	publicToken = await web.enablePublic('900');
	await stores.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('links on a SQLite store', () => {
	test('count prints a figure per registered data kind, and what no kind claims', async () => {
		const run = await links(['count'], { STORE_URL: sqliteUrl });
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, COUNT_OUTPUT);
	});

	test('bad configuration and unknown subcommands exit non-zero with one line', async () => {
		for (const [args, env, pattern] of [
			[['frobnicate'], { STORE_URL: sqliteUrl }, /unknown subcommand "frobnicate"/],
			[[], { STORE_URL: sqliteUrl }, /usage/],
			[['count'], { STORE_URL: 'mysql://x' }, /STORE_URL must start with/],
			[['check'], { STORE_URL: sqliteUrl }, /LINK_SECRET is required/],
			[['check'], { STORE_URL: sqliteUrl, LINK_SECRET: 'short' }, /LINK_SECRET must be 32 bytes/],
			[['migrate'], { STORE_URL: sqliteUrl }, /migrate needs --to/],
			[['count'], { STORE_URL: `sqlite://${join(dir, 'typo.sqlite')}` }, /does not exist/],
		] as const) {
			const run = await links([...args], env);
			assert.notEqual(run.code, 0, `${args.join(' ')} exited 0`);
			assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
			assert.match(run.stderr, pattern);
			assert.equal(run.stdout, '');
		}
	});

	test('check lists what the configured secrets cannot open, by store key; reseal makes every record current', async () => {
		const rotatedOnly = { STORE_URL: sqliteUrl, LINK_SECRET: hex(SECRET_B) };
		const rotated = { ...rotatedOnly, LINK_SECRET_PREVIOUS: hex(SECRET_A) };

		const before = await links(['check'], rotatedOnly);
		assert.equal(before.code, 1);
		assert.deepEqual(figures(before.stdout), { readable: 0, unreadable: 3 });
		assert.deepEqual(before.stdout.trim().split('\n').slice(2).sort(), ['guild:900', 'user:1', 'user:2']);
		assertNoKey(before);

		assert.equal((await links(['check'], rotated)).code, 0, 'the previous secret still opens them');

		// One record nobody can open any more: counted, left alone, and reseal still succeeds.
		const stores = await openStores(sqliteUrl);
		await linkStoreOn(stores, Buffer.alloc(32, 0x33)).linkUser('3', KEYS[0] ?? '');
		await stores.close();

		const first = await links(['reseal'], rotated);
		assert.equal(first.code, 0, first.stderr);
		assert.deepEqual(figures(first.stdout), { resealed: 3, 'already current': 0, unreadable: 1 });
		assertNoKey(first);
		const again = await links(['reseal'], rotated);
		assert.equal(again.code, 0);
		assert.deepEqual(figures(again.stdout), { resealed: 0, 'already current': 3, unreadable: 1 });

		const after = await links(['check'], rotatedOnly);
		assert.equal(after.code, 1);
		assert.deepEqual(figures(after.stdout), { readable: 3, unreadable: 1 });
		assert.equal(after.stdout.trim().split('\n')[2], 'user:3');

		const reopened = await openStores(sqliteUrl);
		const withNewSecretOnly = linkStoreOn(reopened, SECRET_B);
		assert.equal((await withNewSecretOnly.getUserKey('1'))?.apiKey, KEYS[0]);
		assert.equal((await withNewSecretOnly.getServerKey('900'))?.apiKey, KEYS[2]);
		await reopened.links.delete('user:3');
		await reopened.close();
	});
});

test('check and reseal cover the webhooks, whose URL and signing secret are sealed like a key', async () => {
	const hooksUrl = `sqlite://${join(dir, 'webhooks.sqlite')}`;
	const url = 'https://hooks.example.com/services/T000/B000/XyZsecretPath1234';
	const secret = newSigningSecret();
	const sealed = (linkSecret: Buffer) => sealerOf({ linkSecret, linkSecretPrevious: null });
	const open = async <T>(fn: (ctx: Parameters<typeof webhookStoreOf>[0]) => Promise<T>) => {
		const stores = await openStores(hooksUrl);
		const coordinator = await openCoordinator(hooksUrl);
		try {
			return await fn({ stores, coordinator, config: { storeUrl: hooksUrl } });
		} finally {
			await coordinator.close();
			await stores.close();
		}
	};
	const key = webhookKey('900', 'w1');
	const sealer = sealed(SECRET_A);
	const record: WebhookRecord = {
		v: 1,
		guildId: '900',
		id: 'w1',
		format: 'standard',
		events: 'all',
		kid: sealer.kid,
		sealedUrl: sealer.seal(url, key, 'url'),
		sealedSecret: sealer.seal(secret, key, 'secret'),
		hint: 'hooks.example.com …1234',
		createdBy: '1',
		createdAt: 0,
		guildLocale: null,
		disabled: null,
	};
	await open(async (ctx) => webhookStoreOf(ctx).webhooks.put(record));
	const rotatedOnly = { STORE_URL: hooksUrl, LINK_SECRET: hex(SECRET_B) };
	const rotated = { ...rotatedOnly, LINK_SECRET_PREVIOUS: hex(SECRET_A) };
	const printed = (run: Run) => `${run.stdout}${run.stderr}`;

	const before = await links(['check'], rotatedOnly);
	assert.equal(before.code, 1);
	assert.deepEqual(figures(before.stdout), { readable: 0, unreadable: 1 });
	assert.equal(before.stdout.trim().split('\n')[2], key, 'named by its store key');
	assert.equal((await links(['check'], rotated)).code, 0, 'the previous secret still opens it');

	const resealed = await links(['reseal'], rotated);
	assert.equal(resealed.code, 0, resealed.stderr);
	assert.deepEqual(figures(resealed.stdout), { resealed: 1, 'already current': 0, unreadable: 0 });
	assert.deepEqual(figures((await links(['reseal'], rotated)).stdout), {
		resealed: 0,
		'already current': 1,
		unreadable: 0,
	});
	const after = await links(['check'], rotatedOnly);
	assert.equal(after.code, 0);
	assert.deepEqual(figures(after.stdout), { readable: 1, unreadable: 0 });
	for (const run of [before, resealed, after]) {
		assert.ok(!printed(run).includes('XyZsecretPath') && !printed(run).includes(secret), 'nothing sealed printed');
	}
	// LINK_SECRET_PREVIOUS gone, the webhook opens with the new secret alone: URL and signing secret both.
	const stored = await open(async (ctx) => webhookStoreOf(ctx).webhooks.get('900', 'w1'));
	assert.deepEqual(openWebhook(sealed(SECRET_B), stored!), { url, secret });
});

interface MigrationTarget {
	name: string;
	unavailable: string | null;
	/** A store of its own, so the counts are this test's alone. */
	setUp(): Promise<{ url: string; tearDown(): Promise<void> }>;
}

const targets: MigrationTarget[] = [
	{
		name: 'postgres',
		unavailable: (await postgresBackend()).unavailable,
		setUp: async () => {
			const database = `links_cli_${process.pid}`;
			const admin = new pg.Client({ connectionString: POSTGRES_URL });
			await admin.connect();
			await admin.query(`DROP DATABASE IF EXISTS ${database}`);
			await admin.query(`CREATE DATABASE ${database}`);
			return {
				url: POSTGRES_URL.replace(/\/test$/, `/${database}`),
				tearDown: async () => {
					await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
					await admin.end();
				},
			};
		},
	},
	{
		name: 'redis',
		unavailable: (await redisBackend()).unavailable,
		setUp: async () => {
			// A logical database of its own; emptied before and after.
			const url = `${REDIS_URL}/13`;
			const client = createClient({ url });
			await client.connect();
			await client.flushDb();
			return {
				url,
				tearDown: async () => {
					await client.flushDb();
					client.destroy();
				},
			};
		},
	},
];

for (const target of targets) {
	if (target.unavailable) {
		if (process.env.CI === 'true')
			test(`${target.name} is reachable in CI`, () => assert.fail(target.unavailable ?? ''));
		else test(`links migrate to ${target.name}`, (t) => t.skip(target.unavailable ?? ''));
		continue;
	}
	test(`links migrate copies a SQLite store to ${target.name}, verifies the counts, and can run again`, async (t) => {
		const { url, tearDown } = await target.setUp();
		t.after(tearDown);
		const sourceBytes = readFileSync(file);
		const env = { STORE_URL: sqliteUrl };

		const first = await links(['migrate', '--to', url], env);
		assert.equal(first.code, 0, first.stderr);
		const expected = {
			links: 2,
			'server links': 1,
			'history accounts': 2,
			reports: 1,
			settings: 1,
			'public links': 1,
			boards: 1,
			unregistered: 1,
		};
		const counts = figures(first.stdout);
		for (const [name, value] of Object.entries(expected)) {
			assert.equal(counts[`source ${name}`], value, `source ${name}`);
			assert.equal(counts[`target ${name}`], value, `target ${name}`);
		}
		assert.equal(
			counts.copied,
			11,
			'links, history, report, settings, board, the unclaimed entry and the public link (by token and by server)',
		);
		assertNoKey(first);

		const again = await links(['migrate', `--to=${url}`], env);
		assert.equal(again.code, 0, again.stderr);
		assert.deepEqual(figures(again.stdout), counts, 'a repeat run duplicates nothing');
		assert.ok(readFileSync(file).equals(sourceBytes), 'the source is left untouched');

		const targetCount = await links(['count'], { STORE_URL: url });
		assert.equal(targetCount.stdout, COUNT_OUTPUT);

		const stores = await openStores(url);
		t.after(async () => stores.close());
		assert.equal((await linkStoreOn(stores, SECRET_B).getUserKey('2'))?.apiKey, KEYS[1], 'links open in the target');
		assert.deepEqual(await stores.settings.get('900'), { language: 'de' });
		assert.deepEqual(await stores.history.get(historyAccountId('other')), { samples: [3] });
		assert.deepEqual(await stores.watch.get('mystery:1'), { kept: true });
		assert.equal(await stores.cache.get('stats:x'), undefined, 'the cache is not migrated');
		assert.equal(await stores.watch.get('rename-budget:5'), undefined, 'a rename budget is transient');
		assert.equal(await createWebStore(stores.web).takeLoginState(loginState), null, 'login states are transient');
		assert.equal(
			await createWebStore(stores.web).guildOfPublicToken(publicToken),
			'900',
			'the public link still opens',
		);

		// A target that holds more than the source fails the verification.
		await stores.reports.set('report:1:extra', { guildId: '1' });
		const mismatch = await links(['migrate', '--to', url], env);
		assert.equal(mismatch.code, 1);
		assert.match(mismatch.stderr, /counts differ/);
	});
}
