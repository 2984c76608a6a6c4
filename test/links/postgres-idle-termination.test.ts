import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { StorageUnavailableError } from '../../src/errors.js';
import { openStores } from '../../src/store/open-stores.js';
import { createLinkStore } from '../../src/links/link-store.js';
import { POSTGRES_URL, postgresBackend } from './backends.js';
import { waitUntil } from './wait-until.js';

const backend = await postgresBackend();
const APPLICATION_NAME = `keyv-idle-${process.pid}`;

const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';

/** A read may meet the dead connection once (StorageUnavailableError); the retry must succeed. */
async function retryingOnce<T>(read: () => Promise<T>): Promise<T> {
	try {
		return await read();
	} catch (error) {
		assert.ok(error instanceof StorageUnavailableError, `only a storage error may surface, got ${String(error)}`);
		return read();
	}
}

if (backend.unavailable && process.env.CI === 'true') {
	test('postgres is reachable in CI', () => assert.fail(backend.unavailable ?? ''));
} else if (backend.unavailable) {
	test('an idle Postgres connection killed by the server does not crash the process', (t) =>
		t.skip(backend.unavailable ?? ''));
} else {
	test('an idle Postgres connection killed by the server does not crash the process', async (t) => {
		const errors: unknown[] = [];
		const stores = await openStores(`${POSTGRES_URL}?application_name=${APPLICATION_NAME}`, {
			namespacePrefix: `${APPLICATION_NAME}-`,
			onError: (error) => errors.push(error),
		});
		const links = createLinkStore({
			keyv: stores.links,
			secret: Buffer.alloc(32, 7),
			verifyKey: async () => ({ accountName: 'acme' }),
		});
		await links.linkUser('1', KEY);
		t.after(async () => {
			await links.removeUserLink('1');
			await stores.close();
		});
		assert.equal((await links.getUserKey('1'))?.apiKey, KEY);

		const admin = new pg.Client({ connectionString: POSTGRES_URL });
		await admin.connect();
		t.after(async () => admin.end());
		const killed = await admin.query(
			`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			 WHERE datname = 'test' AND pid <> pg_backend_pid() AND application_name = $1`,
			[APPLICATION_NAME],
		);
		assert.ok(killed.rows.length > 0, 'our pool had an idle connection to terminate');
		await waitUntil(() => errors.length > 0).catch(() => assert.fail('the pool error never reached onError'));
		assert.equal((await retryingOnce(async () => links.getUserKey('1')))?.apiKey, KEY);
	});
}
