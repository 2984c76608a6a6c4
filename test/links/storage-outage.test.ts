import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { StorageUnavailableError } from '../../src/errors.js';
import { openStores } from '../../src/store/open-stores.js';
import { createLinkStore } from '../../src/links/link-store.js';
import type { Stores } from '../../src/store/open-stores.js';

const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';

function linkStoreOn(stores: Stores) {
	return createLinkStore({
		keyv: stores.links,
		secret: Buffer.alloc(32, 1),
		verifyKey: async () => ({ accountName: 'acme' }),
	});
}

async function assertOutage(stores: Stores): Promise<void> {
	const links = linkStoreOn(stores);
	await assert.rejects(links.getUserKey('1'), StorageUnavailableError);
	await assert.rejects(links.getUserLink('1'), StorageUnavailableError);
	await assert.rejects(links.getServerKey('1'), StorageUnavailableError);
	await assert.rejects(links.linkUser('1', KEY), StorageUnavailableError);
	await assert.rejects(links.removeUserLink('1'), StorageUnavailableError);
}

test('a closed SQLite store reads as storage unavailable, not as not linked', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'links-outage-'));
	const stores = await openStores(`sqlite://${join(dir, 'bot.sqlite')}`);
	await linkStoreOn(stores).linkUser('1', KEY);
	await stores.close();
	await assertOutage(stores);
	rmSync(dir, { recursive: true, force: true });
});

test('Redis on a closed port reads as storage unavailable, and errors reach the listener', async () => {
	const errors: unknown[] = [];
	const stores = await openStores('redis://127.0.0.1:1', { onError: (error) => errors.push(error) });
	const started = performance.now();
	await assert.rejects(linkStoreOn(stores).getUserKey('1'), StorageUnavailableError);
	assert.ok(performance.now() - started < 5000, 'fails within the connect timeout');
	assert.ok(errors.length > 0);
	await stores.close();
});

test('PostgreSQL on a closed port reads as storage unavailable', async () => {
	const stores = await openStores('postgres://postgres@127.0.0.1:1/test', { onError: () => undefined });
	await assertOutage(stores);
	await stores.close();
});

test('a storage error message carries no key', async () => {
	const stores = await openStores('postgres://postgres@127.0.0.1:1/test', { onError: () => undefined });
	const error = await linkStoreOn(stores)
		.linkUser('1', KEY)
		.catch((caught: unknown) => caught);
	assert.ok(error instanceof StorageUnavailableError);
	assert.ok(!String(error.message).includes(KEY) && !String(error.cause).includes(KEY));
	await stores.close();
});
