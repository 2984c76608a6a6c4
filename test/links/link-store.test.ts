import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLinkStore } from '../../src/links/link-store.js';
import { InvalidKeyError, RelinkNeededError } from '../../src/errors.js';
import { FeatureUnavailableError, KeyRejectedError } from '../../src/errors.js';
import { postgresBackend, redisBackend, sqliteBackend } from './backends.js';
import type { Backend, OpenedBackend } from './backends.js';

const SECRET_A = Buffer.alloc(32, 0xa1);
const SECRET_B = Buffer.alloc(32, 0xb2);
const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';
const OTHER_KEY = 'sk_live_Hh3Nc6Yd1Ue5Wq0Xa7Gp';

const verifyAs = (accountName: string) => async () => ({ accountName });

const backends: Backend[] = [sqliteBackend, await redisBackend(), await postgresBackend()];

for (const backend of backends) {
	if (backend.unavailable) {
		if (process.env.CI === 'true') {
			test(`${backend.name} backend is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		} else {
			test(`links on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		}
		continue;
	}

	describe(`links on ${backend.name}`, () => {
		let opened: OpenedBackend;
		const storeWith = (secret: Buffer, previousSecret: Buffer | null = null, accountName = 'acme') =>
			createLinkStore({ keyv: opened.stores.links, secret, previousSecret, verifyKey: verifyAs(accountName) });

		before(async () => {
			opened = await backend.open();
		});
		after(async () => {
			await opened.cleanup();
		});

		test('a linked user key reads back with its account name', async () => {
			const store = storeWith(SECRET_A);
			const info = await store.linkUser('100', `  Bearer ${KEY}\n`);
			assert.equal(info.accountName, 'acme');
			assert.equal(info.verified, true);
			assert.equal(info.keyHint, KEY.slice(-4));
			const linked = await store.getUserKey('100');
			assert.equal(linked?.apiKey, KEY);
			assert.deepEqual(await store.getUserLink('100'), { ...info, readable: true });
		});

		test('a server link records who linked it', async () => {
			const store = storeWith(SECRET_A, null, 'guild-account');
			await store.linkServer('900', OTHER_KEY, '100');
			const linked = await store.getServerKey('900');
			assert.equal(linked?.apiKey, OTHER_KEY);
			assert.equal(linked?.info.linkedBy, '100');
			assert.equal((await store.getServerLink('900'))?.accountName, 'guild-account');
			assert.equal(await store.getUserKey('900'), null, 'user and server links are separate');
		});

		test('unlinking removes the link and reports whether there was one', async () => {
			const store = storeWith(SECRET_A);
			await store.linkUser('101', KEY);
			assert.equal(await store.removeUserLink('101'), true);
			assert.equal(await store.removeUserLink('101'), false);
			assert.equal(await store.getUserKey('101'), null);
			assert.equal(await store.getUserLink('101'), null);
			await store.linkServer('901', KEY, '101');
			assert.equal(await store.removeServerLink('901'), true);
			assert.equal(await store.getServerKey('901'), null);
		});

		test('after a secret rotation, old records open with the previous secret and are resealed', async () => {
			await storeWith(SECRET_A).linkUser('102', KEY);
			const before = await opened.stores.links.get('user:102');
			const rotated = storeWith(SECRET_B, SECRET_A);
			assert.equal((await rotated.getUserKey('102'))?.apiKey, KEY);
			const afterRead = await opened.stores.links.get('user:102');
			assert.notEqual(afterRead.kid, before.kid, 'the record is rewritten under the new secret');
			assert.equal((await storeWith(SECRET_B).getUserKey('102'))?.apiKey, KEY);
		});

		test('a record sealed under an unknown secret needs a relink', async () => {
			await storeWith(SECRET_A).linkUser('103', KEY);
			await assert.rejects(storeWith(SECRET_B).getUserKey('103'), RelinkNeededError);
		});

		test('a server link no configured secret opens reads as linked but not readable', async () => {
			await storeWith(SECRET_A).linkServer('903', KEY, '100');
			const status = await storeWith(SECRET_B).getServerLink('903');
			assert.equal(status?.readable, false, 'status must say the key has to be set again');
			assert.equal(status?.keyHint, KEY.slice(-4));
			assert.equal((await storeWith(SECRET_B, SECRET_A).getServerLink('903'))?.readable, true);
			assert.equal((await storeWith(SECRET_A).getServerLink('903'))?.readable, true);
			const record = await opened.stores.links.get('guild:903');
			const bytes = Buffer.from(record.sealedKey, 'base64');
			bytes[14] = (bytes[14] ?? 0) ^ 0x01;
			await opened.stores.links.set('guild:903', { ...record, sealedKey: bytes.toString('base64') });
			assert.equal((await storeWith(SECRET_A).getServerLink('903'))?.readable, false, 'a damaged key is unreadable');
		});

		test('a tampered ciphertext needs a relink, never garbage', async () => {
			const store = storeWith(SECRET_A);
			await store.linkUser('104', KEY);
			const record = await opened.stores.links.get('user:104');
			const bytes = Buffer.from(record.sealedKey, 'base64');
			bytes[14] = (bytes[14] ?? 0) ^ 0x01;
			await opened.stores.links.set('user:104', { ...record, sealedKey: bytes.toString('base64') });
			await assert.rejects(store.getUserKey('104'), RelinkNeededError);
		});

		test("a record copied onto another user's link does not open", async () => {
			const store = storeWith(SECRET_A);
			await store.linkUser('105', KEY);
			await opened.stores.links.set('user:106', await opened.stores.links.get('user:105'));
			await assert.rejects(store.getUserKey('106'), RelinkNeededError);
		});

		test('a feature-unavailable endpoint stores the link unverified', async () => {
			const store = createLinkStore({
				keyv: opened.stores.links,
				secret: SECRET_A,
				verifyKey: async () => Promise.reject(new FeatureUnavailableError(503)),
			});
			const info = await store.linkUser('107', KEY);
			assert.deepEqual([info.verified, info.accountName], [false, null]);
			assert.equal((await store.getUserKey('107'))?.apiKey, KEY);
		});

		test('a rejected key is not stored', async () => {
			const store = createLinkStore({
				keyv: opened.stores.links,
				secret: SECRET_A,
				verifyKey: async () => Promise.reject(new KeyRejectedError(401)),
			});
			await assert.rejects(store.linkUser('108', KEY), KeyRejectedError);
			assert.equal(await store.getUserLink('108'), null);
		});

		test('an impossible key is refused before any stats call', async () => {
			let calls = 0;
			const store = createLinkStore({
				keyv: opened.stores.links,
				secret: SECRET_A,
				verifyKey: async () => {
					calls += 1;
					return { accountName: 'x' };
				},
			});
			await assert.rejects(store.linkUser('109', 'short key'), InvalidKeyError);
			assert.equal(calls, 0);
		});

		test('the raw store never holds a key in clear', async () => {
			await storeWith(SECRET_A).linkUser('110', KEY);
			await storeWith(SECRET_A).linkServer('910', OTHER_KEY, '110');
			const raw = await opened.dumpRaw();
			assert.ok(raw.includes('user:110'), 'the dump sees the records');
			assert.ok(!raw.includes(KEY), 'user key in clear');
			assert.ok(!raw.includes(OTHER_KEY), 'server key in clear');
			assert.ok(!raw.includes(Buffer.from(KEY).toString('base64')), 'user key merely base64-encoded');
		});
	});
}

describe('the record cache of one process on its own store (SQLite)', () => {
	let opened: OpenedBackend;
	let reads = 0;
	/** Held while set: the store's reads wait for it, so a write can land while one is out. */
	let gate: Promise<void> | null = null;
	const TTL_MS = 60_000;
	let clock = 1_000_000;

	before(async () => {
		opened = await sqliteBackend.open();
		const keyv = opened.stores.links;
		const get = keyv.get.bind(keyv) as (key: string) => Promise<unknown>;
		(keyv as unknown as { get: (key: string) => Promise<unknown> }).get = async (key: string) => {
			reads += 1;
			// The gate held when the read was asked for; the read itself is finished first, so a write made while the
			// gate holds cannot slip in before the read's query runs (it did, under load: the read then saw the link).
			const held = gate;
			const value = await get(key);
			if (held) await held;
			return value;
		};
	});
	after(async () => {
		await opened.cleanup();
	});

	const cachedStore = (accountName = 'acme') =>
		createLinkStore({
			keyv: opened.stores.links,
			secret: SECRET_A,
			verifyKey: verifyAs(accountName),
			now: () => clock,
			recordCacheMs: TTL_MS,
		});

	test('a link read again within the time is not read from the store again', async () => {
		const store = cachedStore();
		await store.linkUser('201', KEY);
		const before = reads;
		assert.equal((await store.getUserKey('201'))?.apiKey, KEY);
		assert.equal((await store.getUserKey('201'))?.apiKey, KEY);
		assert.equal((await store.getUserLink('201'))?.accountName, 'acme');
		assert.equal(reads - before, 1);
		assert.equal(await store.getUserKey('202'), null);
		assert.equal(await store.getUserKey('202'), null);
		assert.equal(reads - before, 2, 'no link is remembered too');
	});

	test("this store's own writes show at once: a new key, a removal, a link where there was none", async () => {
		const store = cachedStore();
		await store.linkUser('203', KEY);
		assert.equal((await store.getUserKey('203'))?.apiKey, KEY);
		await store.linkUser('203', OTHER_KEY);
		assert.equal((await store.getUserKey('203'))?.apiKey, OTHER_KEY);
		assert.equal(await store.removeUserLink('203'), true);
		assert.equal(await store.getUserKey('203'), null);
		await store.linkUser('203', KEY);
		assert.equal((await store.getUserKey('203'))?.apiKey, KEY);
	});

	test('a change made elsewhere shows once the time has passed', async () => {
		const store = cachedStore();
		await store.linkUser('204', KEY);
		assert.equal((await store.getUserKey('204'))?.apiKey, KEY);
		await cachedStore().linkUser('204', OTHER_KEY); // another process, e.g. npm run links
		assert.equal((await store.getUserKey('204'))?.apiKey, KEY, 'within the time: the record read before');
		clock += TTL_MS;
		assert.equal((await store.getUserKey('204'))?.apiKey, OTHER_KEY);
	});

	test('a read that a write overtook is answered but not kept', async () => {
		const store = cachedStore();
		let open!: () => void;
		gate = new Promise((resolve) => (open = resolve));
		const reading = store.getUserKey('205');
		gate = null;
		await store.linkUser('205', KEY);
		open();
		assert.equal(await reading, null, 'the read began before the link');
		assert.equal((await store.getUserKey('205'))?.apiKey, KEY, 'and the next read goes to the store');
	});

	test('without the option every read goes to the store, as processes sharing one need', async () => {
		const shared = createLinkStore({ keyv: opened.stores.links, secret: SECRET_A, verifyKey: verifyAs('acme') });
		await shared.linkUser('206', KEY);
		const before = reads;
		await shared.getUserKey('206');
		await shared.getUserKey('206');
		assert.equal(reads - before, 2);
	});
});
