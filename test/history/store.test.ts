import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Keyv from 'keyv';
import { historyAccountId } from '../../src/history/account-id.js';
import { addDays } from '../../src/history/utc-days.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import type { WithLock } from '../../src/store/locks.js';
import { dailySeries } from '../../src/history/daily-figures.js';
import { createHistoryStore } from '../../src/history/history-store.js';
import { historyBackends } from './history-backends.js';
import type { OpenedHistoryBackend } from './history-backends.js';
import { joinsSnapshot, makeSnapshot } from './snapshots.js';

const TODAY = '2026-11-23';
const NOW = Date.parse(`${TODAY}T12:00:00Z`);
const ACME = historyAccountId('acme');
const CONCURRENT_WRITES = 40;

/** One snapshot per day, each naming a different breakdown date: every write must survive. */
const dayWrites = (user: string) =>
	Array.from({ length: CONCURRENT_WRITES }, (_, index) =>
		makeSnapshot({
			generatedAt: `${TODAY}T10:00:00Z`,
			user,
			breakdown: { [addDays(TODAY, -index)]: index + 1 },
		}),
	);

const noLock: WithLock = async (_key, fn) => fn();

for (const backend of await historyBackends()) {
	if (backend.unavailable) {
		if (process.env.CI === 'true') {
			test(`${backend.name} backend is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		} else {
			test(`history on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		}
		continue;
	}

	describe(`history on ${backend.name}`, () => {
		let opened: OpenedHistoryBackend;
		let keyv: Keyv;
		const storeOn = (store: Keyv, withLock?: WithLock, historyDays?: number) =>
			createHistoryStore({ keyv: store, withLock, historyDays, now: () => NOW });

		before(async () => {
			opened = await backend.open();
			keyv = await opened.connect();
		});
		after(async () => {
			await opened.cleanup();
		});

		test('snapshots folded out of order give exact joins and the latest sends', async () => {
			const history = storeOn(keyv);
			await history.record(joinsSnapshot('2026-11-22T08:00:00Z', 200, 5, 30));
			await history.record(makeSnapshot({ generatedAt: '2026-11-22T22:00:00Z', breakdown: { '2026-11-22': 90 } }));
			await history.record(joinsSnapshot('2026-11-20T08:00:00Z', 100, 5, 10));
			await history.record(makeSnapshot({ generatedAt: '2026-11-21T07:00:00Z', breakdown: { '2026-11-22': 1 } }));
			await history.record(joinsSnapshot('2026-11-21T08:00:00Z', 160, 5, 20));
			await history.record(joinsSnapshot('2026-11-21T08:00:00Z', 160, 5, 20));
			const rows = dailySeries(await history.read(ACME), { from: '2026-11-19', to: '2026-11-22', today: TODAY });
			assert.deepEqual(
				rows.map((row) => [row.date, row.sends, row.joins, row.failedSends]),
				[
					['2026-11-19', null, null, null],
					['2026-11-20', null, 60, 10],
					['2026-11-21', null, 40, 10],
					['2026-11-22', 90, null, null],
				],
			);
		});

		test("a link whose key now belongs to another account writes that account's history only", async () => {
			const history = storeOn(keyv);
			await history.record(joinsSnapshot('2026-11-23T08:00:00Z', 7, 1));
			const before = await history.read(ACME);
			const other = makeSnapshot({
				generatedAt: '2026-11-23T09:00:00Z',
				user: 'globex',
				joinsAllTime: 999,
				joinsToday: 9,
			});
			await history.record(other);
			assert.deepEqual(await history.read(ACME), before);
			assert.equal((await history.read(historyAccountId('globex')))?.days[TODAY]?.joinsBefore?.value, 990);
		});

		test('a snapshot that names no account is not recorded', async () => {
			const history = storeOn(keyv);
			assert.equal(await history.record(makeSnapshot({ generatedAt: '2026-11-23T08:00:00Z', user: null })), null);
		});

		test('the store holds the account name only hashed', async () => {
			const history = storeOn(keyv);
			await history.record(makeSnapshot({ generatedAt: '2026-11-23T08:00:00Z', user: 'Plainly-Named-Account' }));
			const raw = await opened.dumpRaw();
			assert.ok(raw.includes(historyAccountId('Plainly-Named-Account')));
			assert.ok(!raw.includes('Plainly-Named-Account'));
		});

		test('only HISTORY_DAYS days are kept', async () => {
			const history = storeOn(keyv, undefined, 10);
			const breakdown: Record<string, number> = {};
			for (let back = 0; back < 30; back += 1) breakdown[addDays(TODAY, -back)] = back;
			const record = await history.record(
				makeSnapshot({ generatedAt: `${TODAY}T08:00:00Z`, user: 'trimmed', breakdown }),
			);
			assert.deepEqual(
				Object.keys(record?.days ?? {}),
				Array.from({ length: 10 }, (_, i) => addDays(TODAY, i - 9)),
			);
			assert.deepEqual(await history.read(historyAccountId('trimmed')), record);
		});

		test('concurrent records of one account lose no update', async () => {
			const history = storeOn(keyv);
			await Promise.all(dayWrites('busy').map(async (snapshot) => history.record(snapshot)));
			const record = await history.read(historyAccountId('busy'));
			assert.equal(Object.keys(record?.days ?? {}).length, CONCURRENT_WRITES);
		});

		test('two processes sharing a lock lose no update', async () => {
			const lock = createKeyedMutex();
			const first = storeOn(keyv, lock);
			const second = storeOn(await opened.connect(), lock);
			await Promise.all(dayWrites('shared').map(async (snapshot, i) => (i % 2 ? first : second).record(snapshot)));
			const record = await first.read(historyAccountId('shared'));
			assert.equal(Object.keys(record?.days ?? {}).length, CONCURRENT_WRITES);
		});

		test('without a lock the same writes do lose updates (what the lock is for)', async () => {
			const history = storeOn(keyv, noLock);
			await Promise.all(dayWrites('unlocked').map(async (snapshot) => history.record(snapshot)));
			const record = await history.read(historyAccountId('unlocked'));
			assert.ok(Object.keys(record?.days ?? {}).length < CONCURRENT_WRITES);
		});

		test('remove deletes the history', async () => {
			const history = storeOn(keyv);
			await history.record(makeSnapshot({ generatedAt: `${TODAY}T08:00:00Z`, user: 'leaving' }));
			assert.equal(await history.remove(historyAccountId('leaving')), true);
			assert.equal(await history.read(historyAccountId('leaving')), null);
			assert.equal(await history.remove(historyAccountId('leaving')), false);
		});

		test('a record written by a newer version is left alone', async () => {
			const id = historyAccountId('future');
			await keyv.set(id, { v: 2, anything: true });
			const history = storeOn(keyv);
			assert.equal(await history.record(makeSnapshot({ generatedAt: `${TODAY}T08:00:00Z`, user: 'future' })), null);
			assert.equal(await history.read(id), null);
			assert.deepEqual(await keyv.get(id), { v: 2, anything: true });
		});
	});
}
