import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStatsStore } from '../../src/service/index.js';
import { runCli, startCliServer, waitForExit } from './cli-process.js';
import { makeTempDir, sendRequest } from './support.js';

const KEY = /ask_[0-9A-Za-z]{40}/;

describe('service command line', () => {
	const temp = makeTempDir('stats-cli');
	after(() => temp.cleanup());
	const db = join(temp.dir, 'nested', 'service.sqlite');

	test('account create prints a new key once and creates the parent directory of --db', async () => {
		const result = await runCli(['account', 'create', 'acme-ads', '--db', db]);
		assert.equal(result.code, 0, result.stderr);
		const key = KEY.exec(result.stdout)?.[0];
		assert.ok(key);
		const store = openStatsStore(db);
		try {
			assert.equal(store.authenticate(key)?.name, 'acme-ads');
		} finally {
			store.close();
		}
	});

	test('the database files never hold a key in clear', async () => {
		const result = await runCli(['account', 'create', 'secretive', '--db', db]);
		const key = KEY.exec(result.stdout)?.[0] ?? '';
		const dir = join(temp.dir, 'nested');
		for (const file of readdirSync(dir)) {
			assert.ok(!readFileSync(join(dir, file)).includes(key), `${file} holds the key`);
		}
	});

	test('account create refuses a name that exists or is invalid', async () => {
		const duplicate = await runCli(['account', 'create', 'ACME-ads', '--db', db]);
		assert.equal(duplicate.code, 1);
		assert.match(duplicate.stderr, /already exists/);
		const invalid = await runCli(['account', 'create', 'bad\nname', '--db', db]);
		assert.equal(invalid.code, 1);
		assert.doesNotMatch(invalid.stdout + invalid.stderr, KEY);
	});

	test('account list shows names, creation time and revocation, never keys', async () => {
		const result = await runCli(['account', 'list', '--db', db]);
		assert.equal(result.code, 0);
		assert.match(result.stdout, /^acme-ads\t\d{4}-\d\d-\d\dT[\d:.]+Z\tno$/m);
		assert.doesNotMatch(result.stdout, /ask_/);
	});

	test('account revoke marks the account revoked; a second revoke or an unknown name fails', async () => {
		assert.equal((await runCli(['account', 'revoke', 'acme-ads', '--db', db])).code, 0);
		assert.match((await runCli(['account', 'list', '--db', db])).stdout, /^acme-ads\t\S+\tyes$/m);
		assert.equal((await runCli(['account', 'revoke', 'acme-ads', '--db', db])).code, 1);
		assert.equal((await runCli(['account', 'revoke', 'nobody', '--db', db])).code, 1);
	});

	test('demo creates, then replaces, an account with 119-120 days of activity and a working key', async () => {
		const first = await runCli(['demo', '--db', db]);
		const startedMs = Date.now();
		const second = await runCli(['demo', '--db', db]);
		const endedMs = Date.now();
		assert.equal(second.code, 0, second.stderr);
		const [firstKey, secondKey] = [KEY.exec(first.stdout)?.[0] ?? '', KEY.exec(second.stdout)?.[0] ?? ''];
		const store = openStatsStore(db);
		try {
			assert.equal(store.authenticate(firstKey), null);
			const account = store.authenticate(secondKey);
			assert.equal(account?.name, 'demo');
			// The CLI seeds with the real clock, whose "today" has no events for a few minutes after 00:00 UTC;
			// demo.test.ts pins the clock for the exact figures.
			const days = store.db.prepare('SELECT COUNT(*) AS n FROM daily_rollups').get() as { n: number };
			const pastTenAfterMidnight = (ms: number) => ms % 86_400_000 >= 600_000;
			const sameDay = Math.floor(startedMs / 86_400_000) === Math.floor(endedMs / 86_400_000);
			if (sameDay && pastTenAfterMidnight(startedMs)) assert.equal(days.n, 120);
			else assert.ok(days.n === 119 || days.n === 120, `${days.n} days`);
		} finally {
			store.close();
		}
	});

	for (const args of [
		[],
		['bogus'],
		['account'],
		['account', 'create'],
		['account', 'list', '--verbose'],
		['serve', '--port', 'x'],
		['serve', '--rate-limit', '-1'],
		['serve', '--auth-fail-limit', 'x'],
		['account', 'rotate-key'],
		['events', 'import', 'f.ndjson'],
	]) {
		test(`"${args.join(' ')}" prints the usage and exits with 2`, async () => {
			const result = await runCli([...args, '--db', db]);
			assert.equal(result.code, 2);
			assert.match(result.stderr, /Usage: npm run service/);
		});
	}

	test('serve prints its URL, answers stats requests and exits 0 on SIGTERM', async () => {
		const created = await runCli(['account', 'create', 'served', '--db', db]);
		const key = KEY.exec(created.stdout)?.[0] ?? '';
		const { child, url } = await startCliServer(['--port', '0', '--db', db, '--rate-limit', '1']);
		try {
			const response = await sendRequest(url, { headers: { Authorization: `Bearer ${key}` } });
			assert.equal(response.status, 200);
			assert.equal(JSON.parse(response.body).data.meta.user, 'served');
			assert.equal((await sendRequest(url, { headers: { Authorization: `Bearer ${key}` } })).status, 429);
		} finally {
			child.kill('SIGTERM');
		}
		assert.equal(await waitForExit(child), 0);
	});

	test('account rotate-key: the old key gets 401 at once from the running server; a revoked account is active again', async () => {
		const created = await runCli(['account', 'create', 'rotating', '--db', db]);
		const oldKey = KEY.exec(created.stdout)?.[0] ?? '';
		const { child, url } = await startCliServer(['--port', '0', '--db', db, '--rate-limit', '0']);
		const status = async (key: string) =>
			(await sendRequest(url, { headers: { Authorization: `Bearer ${key}` } })).status;
		try {
			assert.equal(await status(oldKey), 200);
			const rotated = await runCli(['account', 'rotate-key', 'rotating', '--db', db]);
			assert.equal(rotated.code, 0, rotated.stderr);
			const newKey = KEY.exec(rotated.stdout)?.[0] ?? '';
			assert.ok(newKey && newKey !== oldKey);
			assert.equal(rotated.stdout.split(newKey).length, 2, 'the new key is printed once');
			assert.equal(await status(oldKey), 401);
			assert.equal(await status(newKey), 200);

			assert.equal((await runCli(['account', 'revoke', 'rotating', '--db', db])).code, 0);
			assert.equal(await status(newKey), 401);
			const reactivated = await runCli(['account', 'rotate-key', 'rotating', '--db', db]);
			assert.match(reactivated.stdout, /revoked at .* is active again/);
			assert.equal(await status(KEY.exec(reactivated.stdout)?.[0] ?? ''), 200);
			assert.match((await runCli(['account', 'list', '--db', db])).stdout, /^rotating\t\S+\tno$/m);
		} finally {
			child.kill('SIGTERM');
		}
		await waitForExit(child);
		const unknown = await runCli(['account', 'rotate-key', 'nobody', '--db', db]);
		assert.equal(unknown.code, 1);
		assert.match(unknown.stderr, /no account named "nobody"/);
	});

	test('serve --unreleased answers 503 feature_unavailable', async () => {
		const { child, url } = await startCliServer(['--port', '0', '--db', db, '--unreleased']);
		try {
			const response = await sendRequest(url, { headers: { Authorization: 'Bearer whatever' } });
			assert.equal(response.status, 503);
		} finally {
			child.kill('SIGTERM');
		}
		await waitForExit(child);
	});
});
