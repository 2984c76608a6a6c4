// The one record store every feature keeps its records in, on a real SQLite file, Redis and PostgreSQL: listing by
// prefix (each record once, one server's ordered by id), changing and deleting under a record's lock, two processes
// changing one record at once, and what a process keeps in memory.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
	createRecordStore,
	onePerStore,
	recordLock,
	recordTable,
	type RecordStore,
	type RecordStoreOptions,
} from '../../src/core/record-store.js';
import { StorageUnavailableError } from '../../src/errors.js';
import { openCoordinator } from '../../src/store/coordination.js';
import type { WithLock } from '../../src/store/locks.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { sharedStores, uniqueSnowflake, usable } from '../discord/shared-stores.js';

interface Thing {
	guildId: string;
	id: string;
	count: number;
}

function parseThing(raw: unknown): Thing | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const { guildId, id, count } = raw as Partial<Thing>;
	return typeof guildId === 'string' && typeof id === 'string' && typeof count === 'number'
		? { guildId, id, count }
		: null;
}

const thingKey = (guildId: string, id: string) => `thing:${guildId}:${id}`;
const thingPrefix = (guildId?: string) => `thing:${guildId === undefined ? '' : `${guildId}:`}`;

/** One process's view of the store: its stores, its claims, and its record lock as the bot chooses it. */
async function openProcess(storeUrl: string, prefix: string) {
	const stores = await openStores(storeUrl, { namespacePrefix: prefix });
	const coordinator = await openCoordinator(storeUrl, { namespacePrefix: prefix });
	const ctx = { stores, coordinator, config: { storeUrl } };
	return {
		ctx,
		stores,
		lock: recordLock(ctx),
		things: (lock: WithLock, cache?: RecordStoreOptions<Thing>['cache']) =>
			createRecordStore(stores, lock, { namespace: 'watch', parse: parseThing, cache }),
		close: async () => {
			await coordinator.close();
			await stores.close();
		},
	};
}

/** The store's own reads of the `watch` namespace, counted as the store answers them. */
function countReads(stores: Stores): { readonly count: number } {
	const counter = { count: 0 };
	const get = stores.watch.get.bind(stores.watch);
	stores.watch.get = (async (...args: Parameters<typeof get>) => {
		counter.count += 1;
		return get(...args);
	}) as typeof stores.watch.get;
	return counter;
}

const folder = mkdtempSync(join(tmpdir(), 'record-store-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const backends: { name: string; url: string }[] = [{ name: 'sqlite', url: `sqlite://${join(folder, 'bot.sqlite')}` }];
for (const target of await sharedStores()) {
	if (usable(target, 'record store')) backends.push({ name: target.name, url: target.url });
}

for (const backend of backends) {
	describe(`record store (${backend.name})`, () => {
		const prefix = () => `rec${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

		it('lists by prefix: each record once, one server ordered by id, other kinds and servers left out', async () => {
			const bot = await openProcess(backend.url, prefix());
			try {
				const things = bot.things(bot.lock);
				const guild = uniqueSnowflake('1');
				const other = uniqueSnowflake('2');
				for (const id of ['10', '9', '100']) await things.put(thingKey(guild, id), { guildId: guild, id, count: 1 });
				await things.put(thingKey(other, '1'), { guildId: other, id: '1', count: 1 });
				// Another kind in the same namespace, and a value of no kind: neither is a thing.
				await bot.stores.watch.set(`thingy:${guild}:1`, { guildId: guild, id: '1', count: 1 });
				await bot.stores.watch.set(thingKey(guild, '5'), 'not a thing');

				const server = await things.listOrdered(thingPrefix(guild));
				assert.deepEqual(
					server.map((thing) => thing.id),
					['9', '10', '100'],
					'numbers as numbers',
				);
				const all: Thing[] = [];
				for await (const thing of things.list(thingPrefix())) all.push(thing);
				assert.deepEqual(all.map((thing) => `${thing.guildId}:${thing.id}`).sort(), [
					`${guild}:10`,
					`${guild}:100`,
					`${guild}:9`,
					`${other}:1`,
				]);

				const table = recordTable(things, { key: thingKey, prefix: thingPrefix, id: (thing) => thing.id });
				assert.deepEqual(
					(await table.listServer(other)).map((thing) => thing.id),
					['1'],
				);
				assert.equal(await table.remove(other, '1'), true);
				assert.equal(await table.remove(other, '1'), false, 'a second removal finds nothing');
				assert.deepEqual(await table.listServer(other), []);
			} finally {
				await bot.close();
			}
		});

		it('updates: creates, changes, leaves (undefined), deletes (null); stores the kind as it is written', async () => {
			const bot = await openProcess(backend.url, prefix());
			try {
				const wrapped = createRecordStore(bot.stores, bot.lock, {
					namespace: 'watch',
					parse: (raw) => parseThing((raw as { thing?: unknown } | null)?.thing) ?? null,
					stored: (thing: Thing) => ({ v: 1, thing }),
				});
				const guild = uniqueSnowflake('3');
				const key = thingKey(guild, '1');
				const seen: (Thing | null)[] = [];
				const created = await wrapped.update(key, (current) => {
					seen.push(current);
					return { guildId: guild, id: '1', count: 1 };
				});
				assert.deepEqual(created, { guildId: guild, id: '1', count: 1 });
				assert.deepEqual(seen, [null], 'no record before');
				assert.deepEqual(await bot.stores.watch.get(key), { v: 1, thing: created }, 'stored as the kind writes it');

				const changed = await wrapped.update(key, (current) => current && { ...current, count: current.count + 1 });
				assert.equal(changed?.count, 2);
				const left = await wrapped.update(key, () => undefined);
				assert.deepEqual(left, changed, 'undefined leaves it and answers what is stored');
				assert.deepEqual(await wrapped.get(key), changed);

				assert.equal(await wrapped.update(key, () => null), null);
				assert.equal(await wrapped.get(key), null);
				assert.equal(await bot.stores.watch.get(key), undefined, 'deleted from the store');
				assert.equal(await wrapped.update(key, () => null), null, 'deleting nothing is nothing');
			} finally {
				await bot.close();
			}
		});

		it('two processes changing one record at once lose no change', async () => {
			const runPrefix = prefix();
			const one = await openProcess(backend.url, runPrefix);
			// SQLite is one process's file: its second "process" is the same one, as the bot opens it once.
			const two = backend.name === 'sqlite' ? one : await openProcess(backend.url, runPrefix);
			try {
				const lockOf = onePerStore((ctx: typeof one.ctx) => recordLock(ctx));
				const first = one.things(lockOf(one.ctx));
				const second = two.things(lockOf(two.ctx));
				const guild = uniqueSnowflake('4');
				const key = thingKey(guild, '1');
				const increment = (current: Thing | null): Thing => ({
					guildId: guild,
					id: '1',
					count: (current?.count ?? 0) + 1,
				});
				const rounds = 8;
				await Promise.all(
					Array.from({ length: rounds }, (_, index) => (index % 2 === 0 ? first : second).update(key, increment)),
				);
				assert.equal((await first.get(key))?.count, rounds);
				assert.equal((await second.get(key))?.count, rounds);
				await first.remove(key);
			} finally {
				await one.close();
				if (two !== one) await two.close();
			}
		});

		it('a server lock over several records lets one limit hold against two writers', async () => {
			const runPrefix = prefix();
			const one = await openProcess(backend.url, runPrefix);
			const two = backend.name === 'sqlite' ? one : await openProcess(backend.url, runPrefix);
			try {
				const stores = [one.things(one.lock), two.things(backend.name === 'sqlite' ? one.lock : two.lock)];
				const guild = uniqueSnowflake('5');
				const max = 3;
				const added = await Promise.all(
					Array.from({ length: 6 }, (_, index) => {
						const things = stores[index % 2]!;
						return things.withLock(`things:${guild}`, async () => {
							if ((await things.listOrdered(thingPrefix(guild))).length >= max) return false;
							await things.put(thingKey(guild, String(index)), { guildId: guild, id: String(index), count: 0 });
							return true;
						});
					}),
				);
				assert.equal(added.filter(Boolean).length, max);
				assert.equal((await stores[0]!.listOrdered(thingPrefix(guild))).length, max);
			} finally {
				await one.close();
				if (two !== one) await two.close();
			}
		});

		it('keeps what it read or wrote for its time, as copies; a read that raced a write is not kept', async () => {
			const bot = await openProcess(backend.url, prefix());
			try {
				let clock = 1_800_000_000_000;
				const reads = countReads(bot.stores);
				const things: RecordStore<Thing> = bot.things(bot.lock, { keptMs: 60_000, now: () => clock });
				const guild = uniqueSnowflake('6');
				const key = thingKey(guild, '1');

				assert.equal(await things.get(key), null);
				assert.equal(await things.get(key), null);
				assert.equal(reads.count, 1, 'a missing record is kept too');

				await things.update(key, () => ({ guildId: guild, id: '1', count: 1 }));
				const readsAfterUpdate = reads.count;
				const shown = await things.get(key);
				assert.deepEqual(shown, { guildId: guild, id: '1', count: 1 }, 'its own change shows at once');
				shown!.count = 99; // a caller changing its answer cannot change the next one
				assert.equal((await things.get(key))?.count, 1);
				assert.equal(reads.count, readsAfterUpdate, 'read from memory');

				// Another program writes the record: shown once the time is over.
				await bot.stores.watch.set(key, { guildId: guild, id: '1', count: 42 });
				clock += 59_000;
				assert.equal((await things.get(key))?.count, 1);
				clock += 1_000;
				assert.equal((await things.get(key))?.count, 42);

				// A read that was out while a write landed answers what it read, and is not kept.
				clock += 60_000;
				const get = bot.stores.watch.get.bind(bot.stores.watch);
				let release = () => undefined as void;
				const gate = new Promise<void>((resolve) => {
					release = resolve;
				});
				let held = true;
				let readDone = () => undefined as void;
				const readReachedGate = new Promise<void>((resolve) => {
					readDone = resolve;
				});
				bot.stores.watch.get = (async (...args: Parameters<typeof get>) => {
					const value = await get(...args);
					if (held) {
						held = false;
						readDone();
						await gate;
					}
					return value;
				}) as typeof bot.stores.watch.get;
				const reading = things.get(key);
				// The read has its answer from the store before the write begins (a fixed pause was not enough under load).
				await readReachedGate;
				await things.put(key, { guildId: guild, id: '1', count: 7 });
				release();
				assert.equal((await reading)?.count, 42, 'the raced read answers what it read');
				assert.equal((await things.get(key))?.count, 7, 'and the next read shows the write');
				await things.remove(key);
			} finally {
				await bot.close();
			}
		});

		it('without a cache every get reads the store', async () => {
			const bot = await openProcess(backend.url, prefix());
			try {
				const reads = countReads(bot.stores);
				const things = bot.things(bot.lock);
				const key = thingKey(uniqueSnowflake('7'), '1');
				await things.get(key);
				await things.get(key);
				assert.equal(reads.count, 2);
			} finally {
				await bot.close();
			}
		});

		it('a store that fails answers StorageUnavailableError', async () => {
			const bot = await openProcess(backend.url, prefix());
			const things = bot.things(bot.lock);
			await bot.close();
			await assert.rejects(things.get(thingKey(uniqueSnowflake('8'), '1')), StorageUnavailableError);
		});
	});
}

describe('one record store per opened store', () => {
	it('gives the same value for the same stores, another for other stores', async () => {
		const of = onePerStore((ctx: { stores: object }) => ({ stores: ctx.stores }));
		const stores = {};
		assert.equal(of({ stores }), of({ stores }));
		assert.notEqual(of({ stores }), of({ stores: {} }));
	});
});
