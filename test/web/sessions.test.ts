import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { disablePublic, enablePublic, guildOfPublicToken, publicToken } from '../../src/settings/public-page.js';
import { createWebStore, LOGIN_STATE_TTL_MS, SESSION_TTL_MS, type WebStore } from '../../src/web/auth/sessions.js';
import { postgresBackend, redisBackend, sqliteBackend } from '../links/backends.js';
import type { Backend, OpenedBackend } from '../links/backends.js';

const backends: Backend[] = [sqliteBackend, await redisBackend(), await postgresBackend()];

const SESSION = {
	userId: '310000000000000301',
	username: 'alice',
	globalName: 'Alice',
	locale: 'de',
	guilds: [{ id: '410000000000000001', name: 'Growth', owner: false, permissions: '32' }],
};

for (const backend of backends) {
	if (backend.unavailable) {
		if (process.env.CI === 'true') {
			test(`${backend.name} backend is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		} else {
			test(`dashboard sessions on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		}
		continue;
	}

	describe(`dashboard sessions on ${backend.name}`, () => {
		let opened: OpenedBackend;
		let offset = 0;
		let store: WebStore;
		const clock = () => Date.now() + offset;

		before(async () => {
			opened = await backend.open();
			store = createWebStore(opened.stores.web, { now: clock });
		});
		after(() => opened.cleanup());

		it('keeps a session for 7 days under an id the store holds only as a digest', async () => {
			offset = 0;
			const id = await store.createSession(SESSION);
			assert.ok(Buffer.from(id, 'base64url').length >= 32);
			const read = await store.readSession(id);
			assert.equal(read?.userId, SESSION.userId);
			assert.deepEqual(read?.guilds, SESSION.guilds);
			assert.equal(await store.readSession(`${id}x`), null);
			assert.ok(!(await opened.dumpRaw()).includes(id), 'the id itself is not stored');
			offset = SESSION_TTL_MS + 1000;
			assert.equal(await store.readSession(id), null, 'expired after 7 days');
			offset = 0;
		});

		it('deletes a session at logout', async () => {
			const id = await store.createSession(SESSION);
			await store.deleteSession(id);
			assert.equal(await store.readSession(id), null);
		});

		it('gives a login state once, within 10 minutes', async () => {
			const state = await store.createLoginState('/me');
			assert.deepEqual((await store.takeLoginState(state))?.next, '/me');
			assert.equal(await store.takeLoginState(state), null, 'used');
			const late = await store.createLoginState('/');
			offset = LOGIN_STATE_TTL_MS + 1000;
			assert.equal(await store.takeLoginState(late), null, 'expired');
			offset = 0;
			assert.equal(await store.takeLoginState('never-issued'), null);
		});

		it('gives one of two concurrent callbacks with the same state a session', async () => {
			const state = await store.createLoginState('/');
			const results = await Promise.all([store.takeLoginState(state), store.takeLoginState(state)]);
			assert.equal(results.filter((result) => result !== null).length, 1);
		});

		it('turns a public link on, renews it and turns it off', async () => {
			// The public page's tokens live beside the sessions, in the same namespace (src/settings/public-page.ts).
			const pages = { stores: { web: opened.stores.web } };
			const guildId = '410000000000000002';
			assert.equal(await publicToken(pages, guildId), null);
			const first = await enablePublic(pages, guildId);
			assert.ok(Buffer.from(first, 'base64url').length >= 16, 'at least 128 random bits');
			assert.equal(await guildOfPublicToken(pages, first), guildId);
			const second = await enablePublic(pages, guildId);
			assert.notEqual(second, first);
			assert.equal(await guildOfPublicToken(pages, first), null, 'the old link is gone');
			assert.equal(await publicToken(pages, guildId), second);
			await disablePublic(pages, guildId);
			assert.equal(await guildOfPublicToken(pages, second), null);
			assert.equal(await publicToken(pages, guildId), null);
		});
	});
}
