import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_API_KEY_LENGTH } from '../../src/api-key.js';
import {
	AuthFailureLimiter,
	clientAddressKey,
	DEFAULT_HEADERS_TIMEOUT_MS,
	openStatsStore,
	startStatsServer,
	type StatsStore,
} from '../../src/service/index.js';
import { hashApiKey } from '../../src/service/keys.js';
import { makeTempDir, sendRequest } from './support.js';

describe('failed authentications per client address', () => {
	test('IPv4-mapped addresses count with their IPv4 form; IPv6 by /56; an unknown peer is not counted', () => {
		assert.equal(clientAddressKey('::ffff:127.0.0.1'), '127.0.0.1');
		assert.equal(clientAddressKey('::FFFF:10.1.2.3'), '10.1.2.3');
		assert.equal(clientAddressKey('10.1.2.3'), '10.1.2.3');
		assert.equal(clientAddressKey('2001:db8:1:2ab::1'), clientAddressKey('2001:db8:1:2ff:ffff::9'));
		assert.notEqual(clientAddressKey('2001:db8:1:2ab::1'), clientAddressKey('2001:db8:1:3ab::1'));
		assert.equal(clientAddressKey('::1'), '0:0:0:0::/56');
		assert.equal(clientAddressKey(undefined), null);
		assert.equal(clientAddressKey('not an address'), null);
	});

	test('past N failures in a minute the address is blocked until the minute that began with its first failure ends', () => {
		let nowMs = 1_000;
		const limiter = new AuthFailureLimiter(3, { monotonicMs: () => nowMs });
		for (let i = 0; i < 3; i += 1) assert.deepEqual(limiter.fail('a'), { blocked: false });
		nowMs += 20_500;
		assert.deepEqual(limiter.fail('a'), { blocked: true, retryAfterSeconds: 40 });
		assert.deepEqual(limiter.fail('b'), { blocked: false });
		assert.deepEqual(limiter.fail(null), { blocked: false });
		nowMs += 39_500;
		assert.deepEqual(limiter.fail('a'), { blocked: false });
	});

	test('a limit of 0 never blocks', () => {
		const limiter = new AuthFailureLimiter(0, { monotonicMs: () => 0 });
		for (let i = 0; i < 1000; i += 1) assert.equal(limiter.fail('a').blocked, false);
		assert.equal(limiter.size, 0);
	});

	test('memory stays bounded: expired windows are dropped, and past the cap the oldest is forgotten', () => {
		let nowMs = 0;
		const limiter = new AuthFailureLimiter(5, { monotonicMs: () => nowMs, maxAddresses: 100 });
		for (let i = 0; i < 10_000; i += 1) limiter.fail(`10.0.${i >> 8}.${i & 255}`);
		assert.equal(limiter.size, 100);
		nowMs += 60_000;
		limiter.fail('192.0.2.1');
		assert.equal(limiter.size, 1);
	});

	describe('over HTTP', () => {
		const temp = makeTempDir('stats-auth-limits');
		let store: StatsStore;
		let apiKey: string;
		before(() => {
			store = openStatsStore(join(temp.dir, 'service.sqlite'));
			apiKey = store.createAccount('acme').apiKey;
		});
		after(() => {
			store.close();
			temp.cleanup();
		});

		test('the N+1st failing key from one address gets 429 with Retry-After; a valid key still passes', async (t) => {
			const server = await startStatsServer({ store, rateLimitPerMinute: 0, authFailLimitPerMinute: 3 });
			t.after(() => server.close());
			const wrong = { Authorization: 'Bearer ask_0123456789abcdef0123456789abcdef01234567' };
			for (let i = 0; i < 3; i += 1) assert.equal((await sendRequest(server.url, { headers: wrong })).status, 401);
			const limited = await sendRequest(server.url, { headers: wrong });
			assert.equal(limited.status, 429);
			assert.equal(JSON.parse(limited.body).error.code, 'rate_limited');
			const retryAfter = Number(limited.headers['retry-after']);
			assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
			assert.equal((await sendRequest(server.url)).status, 429, 'a missing key is a failed authentication too');
			assert.equal((await sendRequest(server.url, { headers: { Authorization: `Bearer ${apiKey}` } })).status, 200);
		});

		test('--auth-fail-limit 0 answers every failure 401', async (t) => {
			const server = await startStatsServer({ store, authFailLimitPerMinute: 0 });
			t.after(() => server.close());
			const wrong = { Authorization: 'Bearer ask_0123456789abcdef0123456789abcdef01234567' };
			for (let i = 0; i < 70; i += 1) assert.equal((await sendRequest(server.url, { headers: wrong })).status, 401);
		});

		test('the default limit is 60 failures a minute', async (t) => {
			const server = await startStatsServer({ store });
			t.after(() => server.close());
			const wrong = { Authorization: 'Bearer ask_0123456789abcdef0123456789abcdef01234567' };
			for (let i = 0; i < 60; i += 1) assert.equal((await sendRequest(server.url, { headers: wrong })).status, 401);
			assert.equal((await sendRequest(server.url, { headers: wrong })).status, 429);
		});

		test(`keys up to ${MAX_API_KEY_LENGTH} characters are looked up, longer ones refused unhashed`, async (t) => {
			const server = await startStatsServer({ store, authFailLimitPerMinute: 0 });
			t.after(() => server.close());
			// A stored hash of a 256-character key must authenticate; one character more must not.
			const longKey = `ask_${'x'.repeat(MAX_API_KEY_LENGTH - 4)}`;
			store.db
				.prepare('INSERT INTO accounts (name, key_hash, created_at) VALUES (?, ?, ?)')
				.run('long-key', hashApiKey(longKey), Date.now());
			assert.equal((await sendRequest(server.url, { headers: { Authorization: `Bearer ${longKey}` } })).status, 200);
			const tooLong = `${longKey}x`;
			assert.equal((await sendRequest(server.url, { headers: { Authorization: `Bearer ${tooLong}` } })).status, 401);
		});

		test('headers not complete in time get 408 request_timeout and the connection is closed', async (t) => {
			assert.equal(DEFAULT_HEADERS_TIMEOUT_MS, 10_000);
			const server = await startStatsServer({ store, headersTimeoutMs: 300 });
			t.after(() => server.close());
			const { port } = new URL(server.url);
			const socket = connect(Number(port), '127.0.0.1');
			let received = '';
			socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
			const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
			socket.write('GET /api/v1/stats HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ');
			const deadline = setTimeout(() => socket.destroy(new Error('no answer within 5 s')), 5000);
			await closed;
			clearTimeout(deadline);
			assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
			assert.match(received, /Connection: close/i);
			assert.equal(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error.code, 'request_timeout');
		});
	});
});
