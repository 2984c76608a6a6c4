import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { openStores } from '../../src/store/open-stores.js';
import type { Stores } from '../../src/store/open-stores.js';
import { createStatsClient } from '../../src/stats-api/client.js';
import type { StatsClientOptions } from '../../src/stats-api/client.js';
import { KeyRejectedError, UpstreamUnreachableError } from '../../src/errors.js';
import { validBody } from './fault-server.js';

const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';
const SECRET = Buffer.alloc(32, 9);
const MINUTE = 60_000;

/** An endpoint whose answer the test switches: 'ok', 'down' (500) or 'rejects' (401). */
let mode: 'ok' | 'down' | 'rejects' = 'ok';
let requests = 0;
const upstream = createServer((_req, res) => {
	requests += 1;
	const status = { ok: 200, down: 500, rejects: 401 }[mode];
	// A short delay keeps 100 concurrent callers genuinely overlapping.
	setTimeout(() => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(status === 200 ? validBody() : { error: { code: mode, message: mode } }));
	}, 20);
});

let baseUrl: string;
let dir: string;
let stores: Stores;
let clock = Date.UTC(2026, 10, 21, 9, 0, 0);
const closers: (() => Promise<void>)[] = [];

before(async () => {
	await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), 'stats-cache-'));
	stores = await openStores(`sqlite://${join(dir, 'bot.sqlite')}`);
});

beforeEach(async () => {
	mode = 'ok';
	requests = 0;
	await stores.cache.clear();
});

after(async () => {
	for (const close of closers) await close();
	await stores.close();
	upstream.closeAllConnections();
	await new Promise<void>((resolve) => upstream.close(() => resolve()));
	rmSync(dir, { recursive: true, force: true });
});

function client(overrides: Partial<StatsClientOptions> = {}) {
	const created = createStatsClient({
		baseUrl,
		timeoutMs: 1000,
		cacheTtlSeconds: 60,
		cache: stores.cache,
		cacheSecret: SECRET,
		now: () => clock,
		...overrides,
	});
	closers.push(async () => created.close());
	return created;
}

test('100 simultaneous fetches for one key make exactly one upstream request', async () => {
	const stats = client();
	const results = await Promise.all(Array.from({ length: 100 }, async () => stats.fetchSnapshot(KEY)));
	assert.equal(requests, 1);
	assert.equal(stats.upstreamRequests, 1);
	assert.ok(results.every((result) => result.snapshot.meta.user === 'acme' && !result.isStale));
});

test('a snapshot is reused within the TTL and refetched after it', async () => {
	const stats = client();
	const first = await stats.fetchSnapshot(KEY);
	clock += 59_000;
	const reused = await stats.fetchSnapshot(KEY);
	assert.equal(reused.fetchedAt, first.fetchedAt);
	assert.equal(requests, 1);
	clock += 2000;
	const refreshed = await stats.fetchSnapshot(KEY);
	assert.equal(requests, 2);
	assert.equal(refreshed.fetchedAt, clock);
});

test('another client on the same store (another shard) reuses the snapshot', async () => {
	await client().fetchSnapshot(KEY);
	const shard = client();
	await shard.fetchSnapshot(KEY);
	assert.equal(requests, 1);
	assert.equal(shard.upstreamRequests, 0);
});

test('TTL 0 sends every call upstream', async () => {
	const stats = client({ cacheTtlSeconds: 0 });
	for (let i = 0; i < 3; i += 1) await stats.fetchSnapshot(KEY);
	assert.equal(requests, 3);
});

test('an unreachable endpoint serves the last snapshot marked stale, up to an hour old', async () => {
	const stats = client({ cacheTtlSeconds: 0 });
	const fresh = await stats.fetchSnapshot(KEY);
	mode = 'down';
	clock += 59 * MINUTE;
	const stale = await stats.fetchSnapshot(KEY);
	assert.equal(stale.isStale, true);
	assert.equal(stale.fetchedAt, fresh.fetchedAt);
	assert.equal(stale.snapshot.meta.user, 'acme');
	clock += 2 * MINUTE;
	await assert.rejects(stats.fetchSnapshot(KEY), UpstreamUnreachableError);
});

test('a rejected key never falls back to a cached snapshot', async () => {
	const stats = client({ cacheTtlSeconds: 0 });
	await stats.fetchSnapshot(KEY);
	mode = 'rejects';
	await assert.rejects(stats.fetchSnapshot(KEY), KeyRejectedError);
});

test('verifyKey always asks upstream, even within the TTL, and never falls back', async () => {
	const stats = client();
	await stats.fetchSnapshot(KEY);
	await stats.verifyKey(KEY);
	await stats.verifyKey(KEY);
	assert.equal(requests, 3);
	mode = 'down';
	await assert.rejects(stats.verifyKey(KEY), UpstreamUnreachableError);
});

test('verifyKey refreshes the cache: a fetch within the TTL after it reuses its snapshot', async () => {
	const stats = client();
	await stats.fetchSnapshot(KEY);
	clock += 30_000;
	const verifiedAt = clock;
	const verified = await stats.verifyKey(KEY);
	// 70 s after the first fetch (past its TTL) but 40 s after the verification (within it).
	clock += 40_000;
	const result = await stats.fetchSnapshot(KEY);
	assert.equal(requests, 2, 'no upstream request after the verification');
	assert.equal(result.fetchedAt, verifiedAt);
	assert.equal(result.isStale, false);
	assert.deepEqual(result.snapshot, verified);
});

test('the cache store holds no API key in clear', async () => {
	const stats = client();
	await stats.fetchSnapshot(KEY);
	const file = join(dir, 'bot.sqlite');
	const raw = [file, `${file}-wal`]
		.filter((path) => existsSync(path))
		.map((path) => readFileSync(path).toString('latin1'))
		.join('');
	assert.ok(raw.includes('acme'), 'the snapshot reached the file');
	assert.ok(!raw.includes(KEY));
	const keys: string[] = [];
	for await (const [key] of stores.cache.iterator?.(undefined) ?? []) keys.push(String(key));
	assert.equal(keys.length, 1);
	assert.match(keys[0] ?? '', /^[0-9a-f]{64}$/);
});

test('a fresh snapshot this process fetched is served from memory, without a store read', async () => {
	const stats = client();
	await stats.fetchSnapshot(KEY);
	const get = stores.cache.get.bind(stores.cache);
	let storeReads = 0;
	stores.cache.get = (async (...args: Parameters<typeof get>) => {
		storeReads += 1;
		return get(...args);
	}) as typeof stores.cache.get;
	try {
		const again = await stats.fetchSnapshot(KEY);
		assert.equal(again.isStale, false);
		assert.equal(storeReads, 0);
		assert.equal(requests, 1);
		clock += 2 * MINUTE; // past the TTL: back to the shared store, then upstream
		await stats.fetchSnapshot(KEY);
		assert.ok(storeReads >= 1);
		assert.equal(requests, 2);
	} finally {
		stores.cache.get = get;
	}
});
