import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import KeyvSqlite from '@keyv/sqlite';
import { openStores } from '../../src/store/open-stores.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { purgeExpiredSqliteRows, startSqlitePurge } from '../../src/store/sqlite-purge.js';
import { waitUntil } from '../links/wait-until.js';

/** A second connection on the bot's file: the purge works on any connection to it. */
async function rawAdapter(file: string, t: { after: (fn: () => Promise<void>) => void }): Promise<KeyvSqlite> {
	const adapter = new KeyvSqlite({ uri: `sqlite://${file}` });
	t.after(async () => adapter.disconnect());
	return adapter;
}

/** Read through sqlite3, the bot's own library: a second SQLite library would break the bot's locks on the file. */
async function keysInFile(adapter: KeyvSqlite): Promise<string[]> {
	const rows = (await adapter.query('SELECT key FROM keyv ORDER BY key')) as { key: string }[];
	return rows.map((row) => row.key);
}

test('a purge deletes expired cache rows from the SQLite file and keeps fresh ones and links', async (t) => {
	const dir = mkdtempSync(join(tmpdir(), 'links-purge-'));
	const file = join(dir, 'bot.sqlite');
	const stores = await openStores(`sqlite://${file}`);
	t.after(async () => {
		await stores.close();
		rmSync(dir, { recursive: true, force: true });
	});
	await stores.cache.set('stale', { n: 1 }, 1);
	await stores.cache.set('fresh', { n: 2 }, 60_000);
	await stores.links.set('user', 'sealed');
	// A row that is not Keyv JSON must not make the whole purge fail.
	const adapter = await rawAdapter(file, t);
	await adapter.query("INSERT INTO keyv (key, value) VALUES ('odd', 'not json')");
	assert.deepEqual(await keysInFile(adapter), ['links:user', 'odd', 'stats-cache:fresh', 'stats-cache:stale']);

	const purged = await purgeExpiredSqliteRows(adapter, Date.now() + 1000);

	assert.equal(purged, 1);
	assert.deepEqual(await keysInFile(adapter), ['links:user', 'odd', 'stats-cache:fresh']);
	assert.deepEqual(await stores.cache.get('fresh'), { n: 2 });
	assert.equal(await stores.links.get('user'), 'sealed');
});

test('the periodic purge removes an expired row without a read, and stops when asked', async (t) => {
	const dir = mkdtempSync(join(tmpdir(), 'links-purge-'));
	const file = join(dir, 'bot.sqlite');
	const stores = await openStores(`sqlite://${file}`);
	t.after(async () => {
		await stores.close();
		rmSync(dir, { recursive: true, force: true });
	});
	const errors: unknown[] = [];
	const adapter = await rawAdapter(file, t);
	const purge = startSqlitePurge(adapter, (error) => errors.push(error), 20);
	await stores.cache.set('stale', 1, 1);
	await waitUntil(async () => (await keysInFile(adapter)).length === 0);

	await purge.stop();
	await stores.cache.set('stale', 1, 1);
	await sleep(100);
	assert.deepEqual(await keysInFile(adapter), ['stats-cache:stale']);
	assert.deepEqual(errors, []);
});
