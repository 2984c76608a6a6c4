import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Keyv from 'keyv';
import { createStatsClient } from '../../src/stats-api/client.js';
import type { StatsClient } from '../../src/stats-api/client.js';
import {
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
} from '../../src/errors.js';
import { startFaultServer } from './fault-server.js';
import type { FaultServer } from './fault-server.js';

const BUDGET_MS = 600;
// Generous enough for a loaded CI machine; a hang would still blow far past it.
const SLACK_MS = 1000;

let server: FaultServer;
let client: StatsClient;

before(async () => {
	server = await startFaultServer();
	client = createStatsClient({
		baseUrl: server.url,
		timeoutMs: BUDGET_MS,
		cacheTtlSeconds: 0,
		cache: new Keyv(),
		cacheSecret: Buffer.alloc(32, 7),
	});
});

after(async () => {
	await client.close();
	await server.close();
});

/** Runs one scenario and returns what was thrown and how long it took. */
async function failureOf(scenario: string): Promise<{ error: unknown; elapsedMs: number }> {
	const started = performance.now();
	try {
		await client.verifyKey(`scenario-${scenario}`);
	} catch (error) {
		return { error, elapsedMs: performance.now() - started };
	}
	assert.fail(`scenario ${scenario} did not fail`);
}

async function assertFails(scenario: string, type: new (...args: never[]) => Error): Promise<Error> {
	const { error, elapsedMs } = await failureOf(scenario);
	assert.ok(error instanceof type, `${scenario}: expected ${type.name}, got ${String(error)}`);
	assert.ok(elapsedMs <= BUDGET_MS + SLACK_MS, `${scenario} took ${Math.round(elapsedMs)} ms`);
	assert.ok(!error.message.includes('scenario-'), 'the key must not appear in the message');
	return error;
}

describe('stats client against a misbehaving endpoint', () => {
	test('a valid answer becomes a snapshot', async () => {
		const snapshot = await client.verifyKey('scenario-ok');
		assert.equal(snapshot.meta.user, 'acme');
		assert.equal(snapshot.sends.failedAllTime, 4);
		assert.equal(snapshot.joins.allTime, 80);
		assert.equal(snapshot.sends.dailyBreakdown.length, 3);
	});

	test('headers that never come end within the budget as unreachable', async () => {
		const error = await assertFails('slow-headers', UpstreamUnreachableError);
		assert.match(error.message, /timed out/);
	});

	test('a body that trickles past the budget ends within it as unreachable', async () => {
		await assertFails('slow-body', UpstreamUnreachableError);
	});

	test('401 and 403 mean the key was rejected', async () => {
		assert.equal(((await assertFails('401', KeyRejectedError)) as KeyRejectedError).status, 401);
		assert.equal(((await assertFails('403', KeyRejectedError)) as KeyRejectedError).status, 403);
	});

	test('401 is never retried', async () => {
		const before = server.hits.get('401') ?? 0;
		await assertFails('401', KeyRejectedError);
		assert.equal(server.hits.get('401'), before + 1);
	});

	test('404, 501 and 503 feature_unavailable mean the feature is not released', async () => {
		await assertFails('404', FeatureUnavailableError);
		await assertFails('501', FeatureUnavailableError);
		await assertFails('503-feature', FeatureUnavailableError);
		assert.equal(server.hits.get('503-feature'), 1, 'feature_unavailable is not retried');
	});

	test('429 carries the Retry-After seconds', async () => {
		const error = (await assertFails('429', RateLimitedError)) as RateLimitedError;
		assert.equal(error.retryAfterSeconds, 17);
		assert.equal(server.hits.get('429'), 1);
	});

	test('429 with an HTTP-date Retry-After is turned into seconds', async () => {
		const error = (await assertFails('429-date', RateLimitedError)) as RateLimitedError;
		assert.ok(error.retryAfterSeconds !== null && error.retryAfterSeconds >= 28 && error.retryAfterSeconds <= 31);
	});

	test('500 is unreachable and not retried', async () => {
		await assertFails('500', UpstreamUnreachableError);
		assert.equal(server.hits.get('500'), 1);
	});

	test('a 502 followed by a 200 is retried once and succeeds', async () => {
		const snapshot = await client.verifyKey('scenario-502-then-200');
		assert.equal(snapshot.meta.user, 'acme');
		assert.equal(server.hits.get('502-then-200'), 2);
	});

	test('a 503 that persists is retried once, then unreachable', async () => {
		await assertFails('503-always', UpstreamUnreachableError);
		assert.equal(server.hits.get('503-always'), 2);
	});

	test('a reset connection is unreachable after one retry', async () => {
		await assertFails('reset', UpstreamUnreachableError);
		assert.equal(server.hits.get('reset'), 2);
	});

	test('a non-JSON body is a protocol error that echoes nothing of it', async () => {
		const error = await assertFails('not-json', ProtocolError);
		assert.ok(!error.message.includes('12345') && !error.message.includes('html'));
	});

	test('wrong types, negative and fractional counts and bad dates are protocol errors', async () => {
		await assertFails('wrong-types', ProtocolError);
		await assertFails('negative', ProtocolError);
		await assertFails('fraction', ProtocolError);
		await assertFails('bad-date', ProtocolError);
	});

	test('a 5 MB body is a protocol error, read no further than 1 MiB', async () => {
		const error = await assertFails('huge', ProtocolError);
		assert.match(error.message, /1 MiB/);
	});

	test('null and absent figures read as unknown', async () => {
		const snapshot = await client.verifyKey('scenario-nulls');
		assert.equal(snapshot.sends.today, null);
		assert.equal(snapshot.sends.weekly, 2);
		assert.equal(snapshot.sends.allTime, null);
		assert.deepEqual(snapshot.sends.dailyBreakdown, []);
		assert.deepEqual(snapshot.joins, { today: null, weekly: null, monthly: null, allTime: null });
		assert.deepEqual(snapshot.meta, { generatedAt: null, user: null });
	});

	test('unsorted, duplicate and missing days are sorted, summed and zero-filled; extra fields ignored', async () => {
		const snapshot = await client.verifyKey('scenario-messy-days');
		assert.deepEqual(snapshot.sends.dailyBreakdown, [
			{ date: '2026-11-17', sends: 1 },
			{ date: '2026-11-18', sends: 0 },
			{ date: '2026-11-19', sends: 2 },
			{ date: '2026-11-20', sends: 0 },
			{ date: '2026-11-21', sends: 7 },
		]);
		// Only the documented fields survive: the body's extra fields must not leak into the snapshot.
		assert.deepEqual(Object.keys(snapshot), ['sends', 'joins', 'meta']);
		assert.deepEqual(Object.keys(snapshot.sends), [
			'today',
			'weekly',
			'monthly',
			'allTime',
			'failedAllTime',
			'dailyBreakdown',
		]);
		assert.deepEqual(Object.keys(snapshot.joins), ['today', 'weekly', 'monthly', 'allTime']);
		assert.deepEqual(Object.keys(snapshot.meta), ['generatedAt', 'user']);
		for (const day of snapshot.sends.dailyBreakdown) assert.deepEqual(Object.keys(day), ['date', 'sends']);
	});

	test('the client keeps working after every fault (no pinned connections)', async () => {
		const results = await Promise.all(Array.from({ length: 20 }, async () => client.verifyKey('scenario-ok')));
		assert.equal(results.length, 20);
	});
});
