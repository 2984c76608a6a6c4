import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countEntries, listEntries } from '../../src/store/list-entries.js';
import { postgresBackend, redisBackend, sqliteBackend } from '../links/backends.js';
import type { Backend, OpenedBackend } from '../links/backends.js';

/** More than one page of every backend's listing. */
const MANY = 1200;

const backends: Backend[] = [sqliteBackend, await redisBackend(), await postgresBackend()];

for (const backend of backends) {
	if (backend.unavailable) {
		if (process.env.CI === 'true')
			test(`${backend.name} is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		else test(`listing on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		continue;
	}

	describe(`listing on ${backend.name}`, () => {
		let opened: OpenedBackend;
		before(async () => {
			opened = await backend.open();
		});
		after(async () => opened.cleanup());

		test('lists every entry of one namespace, page after page, without expired ones or other namespaces', async () => {
			const { stores } = opened;
			// In chunks: SQLite writes one at a time, and a deep queue would miss the per-operation deadline.
			for (let start = 0; start < MANY; start += 100) {
				await Promise.all(
					Array.from({ length: 100 }, async (_unused, offset) =>
						stores.history.set(`account:${start + offset}`, { n: start + offset }),
					),
				);
			}
			await stores.history.set('gone', 1, 1);
			await stores.reports.set('account:0', { other: true });
			await stores.cache.set('account:1', 'cached');
			await waitForExpiry();

			const keys: string[] = [];
			for await (const entry of listEntries(stores, 'history')) {
				keys.push(entry.key);
				if (entry.key === 'account:7') assert.deepEqual(JSON.parse(entry.raw).value, { n: 7 });
			}
			assert.equal(keys.length, MANY);
			assert.equal(new Set(keys).size, MANY, 'no entry twice');
			assert.ok(!keys.includes('gone'), 'an expired entry is not listed');
			assert.equal(await countEntries(stores, 'reports'), 1);
			assert.equal(await countEntries(stores, 'settings'), 0);
			assert.equal(await countEntries(stores, 'history', (key) => key.endsWith('9')), MANY / 10);
		});

		test("Keyv's own iterator walks a namespace too", async () => {
			const { stores } = opened;
			await stores.reports.set('report:9', { guild: '9' });
			const seen: Array<[string, unknown]> = [];
			assert.ok(stores.reports.iterator, 'Keyv offers an iterator on this backend');
			for await (const [key, value] of stores.reports.iterator(undefined)) seen.push([String(key), value]);
			assert.deepEqual(
				seen.find(([key]) => key === 'report:9'),
				['report:9', { guild: '9' }],
			);
		});

		test('an entry written raw reads back through Keyv as it was', async () => {
			const { stores } = opened;
			await stores.settings.set('guild:1', { language: 'de' }, 60_000);
			const [entry] = await collect(listEntries(stores, 'settings'));
			assert.ok(entry);
			await stores.settings.delete('guild:1');
			await stores.backend.writeRaw(stores.namespace('settings'), entry);
			assert.deepEqual(await stores.settings.get('guild:1'), { language: 'de' });
		});
	});
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
	const all: T[] = [];
	for await (const item of items) all.push(item);
	return all;
}

/** Entries set with a 1 ms TTL are expired once the clock has moved 2 ms on. */
async function waitForExpiry(): Promise<void> {
	const start = Date.now();
	while (Date.now() - start < 2) await new Promise((resolve) => setImmediate(resolve));
}
