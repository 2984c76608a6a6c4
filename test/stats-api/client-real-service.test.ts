import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Keyv from 'keyv';
import { createLinkStore, verifyWithStats } from '../../src/links/link-store.js';
import { openStatsStore, seedDemoAccount, startStatsServer } from '../../src/service/index.js';
import type { RunningStatsServer, StatsStore } from '../../src/service/index.js';
import { createStatsClient } from '../../src/stats-api/client.js';
import type { StatsClient } from '../../src/stats-api/client.js';
import { FeatureUnavailableError, KeyRejectedError, RateLimitedError } from '../../src/errors.js';

const NOW = new Date('2026-11-21T09:30:12.123Z');

let dir: string;
let store: StatsStore;
let apiKey: string;
const servers: RunningStatsServer[] = [];
const clients: StatsClient[] = [];

async function serve(options: { unreleased?: boolean; rateLimitPerMinute?: number } = {}): Promise<StatsClient> {
	const server = await startStatsServer({ store, port: 0, now: () => NOW, rateLimitPerMinute: 0, ...options });
	servers.push(server);
	const client = createStatsClient({
		baseUrl: server.url,
		timeoutMs: 2500,
		cacheTtlSeconds: 60,
		cache: new Keyv(),
		cacheSecret: Buffer.alloc(32, 5),
	});
	clients.push(client);
	return client;
}

before(() => {
	dir = mkdtempSync(join(tmpdir(), 'stats-real-'));
	store = openStatsStore(join(dir, 'service.sqlite'));
	({ apiKey } = seedDemoAccount(store, { now: NOW }));
});

after(async () => {
	for (const client of clients) await client.close();
	for (const server of servers) await server.close();
	store.close();
	rmSync(dir, { recursive: true, force: true });
});

test('the real service answers a snapshot the client accepts and normalises', async () => {
	const client = await serve();
	const { snapshot, isStale } = await client.fetchSnapshot(apiKey);
	assert.equal(isStale, false);
	assert.equal(snapshot.meta.user, 'demo');
	assert.match(snapshot.meta.generatedAt ?? '', /^2026-11-21T09:30:12\.123\d{3}\+00:00$/);
	const days = snapshot.sends.dailyBreakdown;
	assert.equal(days.length, 30);
	assert.equal(days.at(-1)?.date, '2026-11-21');
	assert.equal(days.at(-1)?.sends, snapshot.sends.today);
	const sum = (list: typeof days) => list.reduce((total, day) => total + day.sends, 0);
	assert.equal(sum(days.slice(-7)), snapshot.sends.weekly);
	assert.equal(sum(days), snapshot.sends.monthly);
	assert.ok((snapshot.sends.allTime ?? 0) >= (snapshot.sends.monthly ?? 0));
	assert.ok((snapshot.joins.allTime ?? -1) >= 0);
});

test('the real service rejects an unknown key', async () => {
	const client = await serve();
	await assert.rejects(client.verifyKey('sk_unknown_0000000000000000'), KeyRejectedError);
});

test('the real service in unreleased mode reads as feature unavailable, and a link is stored unverified', async () => {
	const client = await serve({ unreleased: true });
	await assert.rejects(client.verifyKey(apiKey), FeatureUnavailableError);
	const links = createLinkStore({ keyv: new Keyv(), secret: Buffer.alloc(32, 6), verifyKey: verifyWithStats(client) });
	const info = await links.linkUser('42', apiKey);
	assert.deepEqual([info.verified, info.accountName], [false, null]);
});

test('linking against the real service names the account', async () => {
	const client = await serve();
	const links = createLinkStore({ keyv: new Keyv(), secret: Buffer.alloc(32, 6), verifyKey: verifyWithStats(client) });
	const info = await links.linkUser('43', apiKey);
	assert.deepEqual([info.verified, info.accountName], [true, 'demo']);
});

test("the real service's rate limit surfaces with its Retry-After", async () => {
	const client = await serve({ rateLimitPerMinute: 2 });
	await client.verifyKey(apiKey);
	await client.verifyKey(apiKey);
	const error = await client.verifyKey(apiKey).catch((caught: unknown) => caught);
	assert.ok(error instanceof RateLimitedError);
	assert.ok(error.retryAfterSeconds !== null && error.retryAfterSeconds > 0);
});
