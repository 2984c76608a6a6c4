import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type Keyv from 'keyv';
import { historyAccountId } from '../../src/history/account-id.js';
import { createHistoryStore } from '../../src/history/history-store.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSnapshot } from './snapshots.js';

const TODAY = '2026-11-23';
let clock = Date.parse(`${TODAY}T12:00:00Z`);
const CACHE = { entries: 2, ttlMs: 60_000 };
let dir: string;
let stores: Stores;

/** The history namespace with every read counted. */
function counted(keyv: Keyv) {
	let reads = 0;
	const proxy = new Proxy(keyv, {
		get(target, property, receiver) {
			if (property === 'get') {
				return async (...args: Parameters<Keyv['get']>) => {
					reads += 1;
					return target.get(...args);
				};
			}
			const value: unknown = Reflect.get(target, property, receiver);
			return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
	return { keyv: proxy, reads: () => reads };
}

const snapshotOf = (user: string, sends: number) =>
	makeSnapshot({ generatedAt: `${TODAY}T10:00:00Z`, user, breakdown: { [TODAY]: sends } });

before(async () => {
	dir = mkdtempSync(join(tmpdir(), 'history-cache-'));
	stores = await openStores(`sqlite://${join(dir, 'bot.sqlite')}`);
});
after(async () => {
	await stores.close();
	rmSync(dir, { recursive: true, force: true });
});

test('a record read again within the TTL costs no store read; after it, the store is read', async () => {
	const { keyv, reads } = counted(stores.history);
	const history = createHistoryStore({ keyv, now: () => clock, cache: CACHE });
	await createHistoryStore({ keyv: stores.history, now: () => clock }).record(snapshotOf('ttl', 5));
	const id = historyAccountId('ttl');
	assert.equal((await history.read(id))?.days[TODAY]?.sends?.value, 5);
	await Promise.all([history.read(id), history.read(id), history.read(id)]);
	assert.equal(reads(), 1);
	clock += CACHE.ttlMs;
	await history.read(id);
	assert.equal(reads(), 2);
});

test('record() and remove() through the store replace what it keeps at once', async () => {
	const history = createHistoryStore({ keyv: stores.history, now: () => clock, cache: CACHE });
	const id = historyAccountId('writes');
	assert.equal(await history.read(id), null);
	await history.record(snapshotOf('writes', 7));
	assert.equal((await history.read(id))?.days[TODAY]?.sends?.value, 7);
	await history.record(makeSnapshot({ generatedAt: `${TODAY}T11:00:00Z`, user: 'writes', breakdown: { [TODAY]: 9 } }));
	assert.equal((await history.read(id))?.days[TODAY]?.sends?.value, 9);
	assert.equal(await history.remove(id), true);
	assert.equal(await history.read(id), null);
});

test('a read in flight while a snapshot is recorded does not bring the older record back', async () => {
	const history = createHistoryStore({ keyv: stores.history, now: () => clock, cache: CACHE });
	const id = historyAccountId('race');
	await history.record(snapshotOf('race', 1));
	const fresh = createHistoryStore({ keyv: stores.history, now: () => clock, cache: CACHE });
	const reading = fresh.read(id);
	const recording = fresh.record(
		makeSnapshot({ generatedAt: `${TODAY}T11:30:00Z`, user: 'race', breakdown: { [TODAY]: 2 } }),
	);
	await reading;
	await recording;
	assert.equal((await fresh.read(id))?.days[TODAY]?.sends?.value, 2);
});

test('it keeps at most `entries` accounts, and a failed read is not kept', async () => {
	const { keyv, reads } = counted(stores.history);
	const history = createHistoryStore({ keyv, now: () => clock, cache: CACHE });
	for (const user of ['a', 'b', 'c']) await history.read(historyAccountId(user));
	await history.read(historyAccountId('a'));
	assert.equal(reads(), 4, 'a was the oldest of three, past the two kept');

	let fail = true;
	const flaky = {
		get: async () => (fail ? Promise.reject(new Error('down')) : undefined),
	} as unknown as Keyv;
	const onFlaky = createHistoryStore({ keyv: flaky, now: () => clock, cache: CACHE });
	await assert.rejects(onFlaky.read(historyAccountId('x')), /storage/i);
	fail = false;
	assert.equal(await onFlaky.read(historyAccountId('x')), null);
});

test('without a cache every read goes to the store', async () => {
	const { keyv, reads } = counted(stores.history);
	const history = createHistoryStore({ keyv, now: () => clock });
	await history.read(historyAccountId('plain'));
	await history.read(historyAccountId('plain'));
	assert.equal(reads(), 2);
});
