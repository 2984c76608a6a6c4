// The manage page's Webhooks section through the app, the Discord stand-in and a real SQLite store: each webhook by
// host and last 4 (never its URL), its state and why, its last deliveries, and the remove button; Manage Server
// re-checked when the POST arrives.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../../src/core/actor.js';
import { addWebhook, testWebhook } from '../../src/webhooks/webhook-actions.js';
import { webhookStoreOf } from '../../src/webhooks/webhook-store.js';
import { Browser, createAccount, logIn, MANAGE_GUILD, startWebHarness, type WebHarness } from './web-harness.js';

const ADMIN = '310000000000000501';
const MEMBER = '310000000000000502';

let h: WebHarness;
let guildId: string;

before(async () => {
	h = await startWebHarness();
	guildId = h.sandbox.guildIds[0]!;
	const managers = h.sandbox.addRole(guildId, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
	h.sandbox.setMember(guildId, ADMIN, { roles: [managers] });
	h.sandbox.setMember(guildId, MEMBER, { roles: [] });
	await h.services.ctx.links.linkServer(guildId, createAccount(h, 'Hooks_Ads'), ADMIN);
});
after(() => h.close());

async function loggedIn(userId: string): Promise<Browser> {
	const browser = new Browser(h.app);
	assert.equal((await logIn(h, browser, userId)).status, 302);
	return browser;
}

describe('the Webhooks section of the manage page', () => {
	it('lists each webhook by host and last 4 with its state and last deliveries, and removes one', async () => {
		const ctx = { ...h.services.ctx, config: { ...h.services.ctx.config, webhookAllowHosts: ['127.0.0.1'] } };
		const actor: Actor = { userId: ADMIN, canManageServer: true, roleIds: [], origin: 'discord' };
		const input = { guildId, guildLocale: 'en-US', events: 'all' };
		// Port 9 on loopback: nothing listens, so the ping's log entry says the connection failed.
		const live = await addWebhook(ctx, actor, {
			...input,
			format: 'slack',
			url: 'http://127.0.0.1:9/secret-path-Ab12',
		});
		await testWebhook(ctx, actor, guildId, live.record.id);
		const gone = await addWebhook(ctx, actor, {
			...input,
			format: 'discord',
			url: 'http://127.0.0.1:9/other-path-Cd34',
		});
		await webhookStoreOf(ctx).webhooks.update(guildId, gone.record.id, (record) =>
			record ? { ...record, disabled: { reason: 'gone', at: Date.now(), status: 410 } } : undefined,
		);

		const admin = await loggedIn(ADMIN);
		const body = await (await admin.request(`/servers/${guildId}/manage`)).text();
		assert.match(body, /<section id="webhooks" class="manage">/u);
		assert.ok(body.includes('127.0.0.1:9 …Ab12') && body.includes('127.0.0.1:9 …Cd34'), 'host and last 4');
		assert.ok(!body.includes('secret-path') && !body.includes('other-path'), 'never the URL');
		assert.ok(body.includes('disabled: the receiver said it is gone (410)'), 'why it stopped');
		assert.ok(body.includes('<td>ping</td>') && body.includes('could not connect'), 'the last delivery');

		const refused = await (
			await loggedIn(MEMBER)
		).post(`/servers/${guildId}/webhooks`, {
			action: 'remove',
			webhook: live.record.id,
		});
		assert.equal(refused.status, 403);
		assert.equal((await webhookStoreOf(ctx).webhooks.listServer(guildId)).length, 2);

		const removed = await admin.post(`/servers/${guildId}/webhooks`, { action: 'remove', webhook: live.record.id });
		assert.equal(removed.status, 303);
		assert.match(removed.headers.get('location') ?? '', /done=webhook-removed/u);
		assert.deepEqual(
			(await webhookStoreOf(ctx).webhooks.listServer(guildId)).map((record) => record.id),
			[gone.record.id],
		);
	});
});
