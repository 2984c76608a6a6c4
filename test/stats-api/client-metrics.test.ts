import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Keyv from 'keyv';
import { createStatsClient, type StatsClientOptions } from '../../src/stats-api/client.js';
import { startFaultServer, type FaultServer } from './fault-server.js';

type Seen = { results: unknown[]; lookups: string[] };

describe('the stats client tells metrics what each request and lookup did', () => {
	let server: FaultServer;
	before(async () => {
		server = await startFaultServer();
	});
	after(async () => {
		await server.close();
	});

	function client(overrides: Partial<StatsClientOptions> = {}) {
		const seen: Seen = { results: [], lookups: [] };
		const stats = createStatsClient({
			baseUrl: server.url,
			timeoutMs: 1500,
			cacheTtlSeconds: 60,
			cache: new Keyv(),
			cacheSecret: Buffer.alloc(32, 7),
			onUpstreamResult: (result, seconds) => {
				assert.ok(seconds >= 0 && seconds < 5);
				seen.results.push(result);
			},
			onCacheLookup: (result) => seen.lookups.push(result),
			...overrides,
		});
		return { stats, seen };
	}

	it('a status per attempt, the retry included, and a miss then a hit', async () => {
		const { stats, seen } = client();
		await stats.fetchSnapshot('scenario-ok');
		await stats.fetchSnapshot('scenario-ok');
		await assert.rejects(stats.fetchSnapshot('scenario-503-always'));
		await assert.rejects(stats.fetchSnapshot('scenario-401'));
		await stats.close();
		assert.deepEqual(seen.results, [200, 503, 503, 401]);
		assert.deepEqual(seen.lookups, ['miss', 'hit', 'miss', 'miss']);
	});

	it('network for a reset connection, timeout for a budget spent on headers or on the body', async () => {
		const { stats, seen } = client({ timeoutMs: 400 });
		await assert.rejects(stats.verifyKey('scenario-reset'));
		await assert.rejects(stats.verifyKey('scenario-slow-headers'));
		await assert.rejects(stats.verifyKey('scenario-slow-body'));
		await stats.close();
		assert.equal(seen.results[0], 'network');
		assert.deepEqual(seen.results.slice(-2), ['timeout', 'timeout']);
	});

	it('stale when the endpoint fails and an older snapshot stands in', async () => {
		const cache = new Keyv();
		let now = Date.now();
		const { stats, seen } = client({ cache, now: () => now });
		await stats.fetchSnapshot('scenario-ok');
		await stats.close();
		now += 120_000;
		const { stats: offline, seen: offlineSeen } = client({ cache, now: () => now, baseUrl: 'http://127.0.0.1:9' });
		const result = await offline.fetchSnapshot('scenario-ok');
		await offline.close();
		assert.equal(result.isStale, true);
		assert.deepEqual(seen.lookups, ['miss']);
		assert.deepEqual(offlineSeen.lookups, ['stale']);
		assert.ok(offlineSeen.results.every((r) => r === 'network'));
	});
});
