import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Keyv from 'keyv';
import { createKeyedMutex } from '../../src/store/locks.js';
import { createSettingsStore, SETTINGS_CACHE_TTL_MS } from '../../src/settings/settings-store.js';
import { postgresBackend, redisBackend, sqliteBackend } from '../links/backends.js';
import type { Backend, OpenedBackend } from '../links/backends.js';

const ROLE = '300000000000000001';
const OTHER_ROLE = '300000000000000002';
const CHANNEL = '400000000000000001';
let guildCounter = 0;
const nextGuild = () => `2100000000000000${String(++guildCounter).padStart(2, '0')}`;

/** The settings namespace with every read counted: what the cache saves is store round trips. */
function countingReads(keyv: Keyv): { keyv: Keyv; reads: () => number } {
	let reads = 0;
	const counted = new Proxy(keyv, {
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
	return { keyv: counted, reads: () => reads };
}

/** A bound such as a host could choose for processes sharing a store (the bot itself reads through there). */
const SHORT_TTL_MS = 5_000;

const backends: Backend[] = [sqliteBackend, await redisBackend(), await postgresBackend()];

for (const backend of backends) {
	if (backend.unavailable) {
		if (process.env.CI === 'true') {
			test(`${backend.name} backend is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		} else {
			test(`settings cache on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		}
		continue;
	}
	describe(`settings cache on ${backend.name}`, () => {
		let opened: OpenedBackend;
		let clock = 1_000_000;
		const now = () => clock;
		before(async () => {
			opened = await backend.open();
		});
		after(() => opened.cleanup());

		/** Two processes on one store: each has its own cache and its own lock. */
		const twoProcesses = (ttlMs: number) => {
			const a = countingReads(opened.stores.settings);
			const b = countingReads(opened.stores.settings);
			return {
				a: createSettingsStore({ keyv: a.keyv, withLock: createKeyedMutex(), now, cacheTtlMs: ttlMs }),
				b: createSettingsStore({ keyv: b.keyv, withLock: createKeyedMutex(), now, cacheTtlMs: ttlMs }),
				readsA: a.reads,
			};
		};

		test('repeated reads of one server cost one store read, concurrent ones included', async () => {
			const { a, readsA } = twoProcesses(SHORT_TTL_MS);
			const guild = nextGuild();
			await Promise.all(Array.from({ length: 20 }, () => a.get(guild)));
			for (let i = 0; i < 20; i++) await a.get(guild);
			assert.equal(readsA(), 1);
		});

		test('a change through /settings (update, reset) or a deletion is seen at once by the process that made it', async () => {
			const { a } = twoProcesses(SETTINGS_CACHE_TTL_MS.oneProcess);
			const guild = nextGuild();
			assert.equal((await a.get(guild)).shareRoleId, null);
			await a.update(guild, { shareRoleId: ROLE, shareChannelId: CHANNEL });
			assert.equal((await a.get(guild)).shareRoleId, ROLE);
			assert.deepEqual(await a.forgetDeleted({ guildId: guild, roleId: ROLE }), ['shareRoleId']);
			const afterDeletion = await a.get(guild);
			assert.equal(afterDeletion.shareRoleId, null);
			assert.deepEqual(afterDeletion.deleted, ['shareRoleId']);
			await a.forgetDeleted({ guildId: guild, channelId: CHANNEL });
			assert.equal((await a.get(guild)).shareChannelId, null);
			await a.update(guild, { language: 'de' });
			await a.reset(guild);
			assert.equal((await a.get(guild)).language, 'auto');
		});

		test("another process's change is seen once the TTL has passed, and not written over meanwhile", async () => {
			const { a, b } = twoProcesses(SHORT_TTL_MS);
			const guild = nextGuild();
			assert.equal((await a.get(guild)).serverStatsRoleId, null);
			await b.update(guild, { serverStatsRoleId: ROLE });
			clock += SHORT_TTL_MS - 1;
			assert.equal((await a.get(guild)).serverStatsRoleId, null, 'within the bound, the cached copy');
			// A change made under the lock starts from the store, never from the cached copy.
			await a.update(guild, { shareRoleId: OTHER_ROLE });
			const merged = await a.get(guild);
			assert.equal(merged.serverStatsRoleId, ROLE);
			assert.equal(merged.shareRoleId, OTHER_ROLE);
			clock += 2;
			assert.equal((await b.get(guild)).shareRoleId, OTHER_ROLE, 'b sees a once its own copy is older than the TTL');
		});

		test('a read in flight while the settings change does not bring the old ones back', async () => {
			const { a } = twoProcesses(SETTINGS_CACHE_TTL_MS.oneProcess);
			const guild = nextGuild();
			const reading = a.get(guild);
			const updating = a.update(guild, { shareRoleId: ROLE });
			assert.equal((await reading).shareRoleId, null);
			await updating;
			assert.equal((await a.get(guild)).shareRoleId, ROLE);
		});

		test('each caller gets its own copy: changing it does not change the cached settings', async () => {
			const { a } = twoProcesses(SETTINGS_CACHE_TTL_MS.oneProcess);
			const guild = nextGuild();
			const settings = await a.get(guild);
			settings.language = 'fr';
			settings.deleted.push('shareRoleId');
			assert.equal((await a.get(guild)).language, 'auto');
			assert.deepEqual((await a.get(guild)).deleted, []);
		});

		test('processes sharing a store read through: a rule changed on one worker holds at once on the other', async () => {
			const { a, b, readsA } = twoProcesses(SETTINGS_CACHE_TTL_MS.shared);
			const guild = nextGuild();
			assert.equal((await a.get(guild)).serverStatsRoleId, null);
			await b.update(guild, { serverStatsRoleId: ROLE });
			assert.equal((await a.get(guild)).serverStatsRoleId, ROLE);
			assert.equal(readsA(), 2);
		});

		test('without a TTL every read goes to the store', async () => {
			const counted = countingReads(opened.stores.settings);
			const store = createSettingsStore({ keyv: counted.keyv, withLock: createKeyedMutex(), now });
			const guild = nextGuild();
			await store.get(guild);
			await store.get(guild);
			assert.equal(counted.reads(), 2);
		});
	});
}

test('a failed read is not remembered', async () => {
	let fail = true;
	const keyv = { get: async () => (fail ? Promise.reject(new Error('store down')) : undefined) } as unknown as Keyv;
	const store = createSettingsStore({ keyv, withLock: createKeyedMutex(), cacheTtlMs: 60_000 });
	await assert.rejects(store.get('210000000000000099'), /store down/);
	fail = false;
	assert.equal((await store.get('210000000000000099')).language, 'auto');
});
