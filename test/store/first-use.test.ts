import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postgresBackend, redisBackend, sqliteBackend } from '../links/backends.js';

for (const backend of [sqliteBackend, await redisBackend(), await postgresBackend()]) {
	if (backend.unavailable) {
		if (process.env.CI === 'true')
			test(`${backend.name} is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		else test(`concurrent first use on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		continue;
	}
	test(`five concurrent reads right after openStores all succeed on ${backend.name}`, async (t) => {
		const opened = await backend.open();
		t.after(async () => opened.cleanup());
		const reads = await Promise.allSettled(
			['a', 'b', 'c', 'd', 'e'].map(async (key) => opened.stores.links.get(`user:${key}`)),
		);
		assert.deepEqual(
			reads.map((read) => read.status),
			Array(5).fill('fulfilled'),
			String(reads.find((read) => read.status === 'rejected')?.reason),
		);
	});
}
