import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { UserFacingError } from '../../src/errors.js';
import {
	disablePublic,
	enablePublic,
	guildOfPublicToken,
	publicToken,
	setPublicPage,
} from '../../src/settings/public-page.js';
import { createWebStore } from '../../src/web/auth/sessions.js';
import {
	admin,
	ADMIN,
	AUDIT_CHANNEL,
	auditLines,
	GUILD,
	member,
	openActionContext,
	WHEN,
	type ActionTestContext,
} from '../stats/action-support.js';

describe('the public page, the action and its token store', () => {
	let t: ActionTestContext;
	before(async () => {
		t = await openActionContext();
		await t.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL });
	});
	beforeEach(async () => {
		await disablePublic(t.ctx, GUILD);
		t.posts.length = 0;
	});
	after(async () => t.close());

	test('without Manage Server: refused in the words the dashboard has always used, nothing changes', async () => {
		const refused = (error: unknown) => error instanceof UserFacingError && error.key === 'web.manageServerNeeded';
		await assert.rejects(setPublicPage(t.ctx, member('dashboard'), GUILD, true), refused);
		assert.equal(await publicToken(t.ctx, GUILD), null);
		const token = await enablePublic(t.ctx, GUILD);
		await assert.rejects(setPublicPage(t.ctx, member('dashboard'), GUILD, false), refused);
		assert.equal(await guildOfPublicToken(t.ctx, token), GUILD, 'a refused "off" leaves the link working');
		assert.deepEqual(t.posts, []);
	});

	test('on gives a link of 128 random bits; on again replaces it; off ends it at once; each with its audit line', async () => {
		const { token: first } = await setPublicPage(t.ctx, admin('dashboard'), GUILD, true, { guildLocale: 'en-US' });
		assert.ok(first);
		assert.match(first, /^[A-Za-z0-9_-]{22}$/);
		assert.equal(await guildOfPublicToken(t.ctx, first), GUILD);
		assert.equal(await publicToken(t.ctx, GUILD), first);

		const { token: second } = await setPublicPage(t.ctx, admin('dashboard'), GUILD, true);
		assert.ok(second && second !== first);
		assert.equal(await guildOfPublicToken(t.ctx, first), null, 'the old link stops working');
		assert.equal(await guildOfPublicToken(t.ctx, second), GUILD);

		assert.deepEqual(await setPublicPage(t.ctx, admin('dashboard'), GUILD, false), { token: null });
		assert.equal(await guildOfPublicToken(t.ctx, second), null);
		assert.equal(await publicToken(t.ctx, GUILD), null);

		const on = `<@${ADMIN}> (dashboard) turned on the server's public statistics page ${WHEN}.`;
		const off = `<@${ADMIN}> (dashboard) turned off the server's public statistics page ${WHEN}.`;
		assert.deepEqual(auditLines(t), [on, on, off]);
	});

	test('the store holds only a digest of a token; a value that is no token is not looked up', async () => {
		const { token } = await setPublicPage(t.ctx, admin('dashboard'), GUILD, true);
		assert.ok(token);
		assert.equal(await guildOfPublicToken(t.ctx, '../../etc'), null);
		assert.equal(await guildOfPublicToken(t.ctx, ''), null);
		const store = await t.dumpStore();
		assert.ok(!store.includes(`public:${token}`), 'the lookup key is a digest of the token');
	});

	test("links given out before the move keep working: the dashboard's store and the core read the same keys", async () => {
		const web = createWebStore(t.ctx.stores.web);
		const earlier = await web.enablePublic(GUILD);
		assert.equal(await guildOfPublicToken(t.ctx, earlier), GUILD);
		assert.equal(await publicToken(t.ctx, GUILD), earlier);
		const { token } = await setPublicPage(t.ctx, admin(), GUILD, true);
		assert.ok(token);
		assert.equal(await web.guildOfPublicToken(token), GUILD);
		assert.equal(await web.guildOfPublicToken(earlier), null);
		await setPublicPage(t.ctx, admin(), GUILD, false);
		assert.equal(await web.publicToken(GUILD), null);
	});
});
