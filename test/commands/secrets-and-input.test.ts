import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { translator } from '../../src/i18n/index.js';

const en = translator('en-US');
import { openStores } from '../../src/store/open-stores.js';
import { userLinkKey } from '../../src/links/link-keys.js';
import { MAX_API_KEY_LENGTH, MIN_API_KEY_LENGTH } from '../../src/api-key.js';
import type { InteractionHandle } from '../../sandbox/index.js';
import {
	ADMIN_PERMISSIONS,
	createAccount,
	linkViaModal,
	readStoreBytes,
	startHarness,
	type Harness,
} from '../app/harness.js';

const USER = '330000000000000001';

describe('bad input gets a clear private message and stores nothing', () => {
	let h: Harness;
	before(async () => {
		h = await startHarness();
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	it('rejects an empty key from the modal', async () => {
		const { message } = await linkViaModal(h, '', { userId: USER });
		assert.ok(message.isEphemeral);
		assert.equal(message.content, en('errors.invalidKeyLength', { min: MIN_API_KEY_LENGTH, max: MAX_API_KEY_LENGTH }));
		assert.equal(await h.bot.ctx.links.getUserLink(USER), null);
	});

	it('rejects a 10 kB key without quoting it', async () => {
		const huge = 'k'.repeat(10_240);
		const { message } = await linkViaModal(h, huge, { userId: USER });
		assert.ok(message.isEphemeral);
		assert.equal(message.content, en('errors.invalidKeyLength', { min: MIN_API_KEY_LENGTH, max: MAX_API_KEY_LENGTH }));
		assert.ok(!message.content.includes('kkkkkkkkkkkkkkkk'));
		assert.equal(await h.bot.ctx.links.getUserLink(USER), null);
	});

	it('rejects a key the endpoint does not know, and stores nothing', async () => {
		const { message } = await linkViaModal(h, 'ask_unknownkeyunknownkeyunknownkey00', { userId: USER });
		assert.equal(message.content, en('errors.linkKeyRejected'));
		assert.equal(await h.bot.ctx.links.getUserLink(USER), null);
	});

	it('a stored key that no secret opens asks the member to link again', async () => {
		const userId = '330000000000000005';
		await linkViaModal(h, createAccount(h, 'tampered'), { userId });
		const stores = await openStores(`sqlite://${join(h.dir, 'bot.sqlite')}`);
		const record = (await stores.links.get(userLinkKey(userId))) as { sealedKey: string };
		const flipped = Buffer.from(record.sealedKey, 'base64');
		flipped[flipped.length - 1]! ^= 1;
		await stores.links.set(userLinkKey(userId), { ...record, sealedKey: flipped.toString('base64') });
		await stores.close();
		const message = await h.sandbox.dispatchCommand({ name: 'stats', userId }).finalMessage();
		assert.ok(message.isEphemeral);
		assert.equal(message.content, en('errors.relinkNeeded'));
	});

	it('rejects a days value outside the choices', async () => {
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId: USER,
			options: [{ name: 'days', type: 4, value: 5 }],
		});
		const message = await handle.finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, /`days` must be one of 7, 14, 30, 90/);
	});

	it('rejects a scope outside the choices', async () => {
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId: USER,
			options: [{ name: 'scope', type: 3, value: 'everyone' }],
		});
		assert.match((await handle.finalMessage()).content, /`scope` must be `me` or `server`/);
	});

	it('explains that server-key and scope:server need a server when used in a DM', async () => {
		const serverKey = h.sandbox.dispatchCommand({
			name: 'server-key',
			subcommand: 'set',
			guildId: null,
			userId: USER,
			permissions: ADMIN_PERMISSIONS,
		});
		const first = await serverKey.firstResponse();
		assert.equal(first.type, 4, 'no modal in a DM');
		assert.match((await serverKey.finalMessage()).content, /works inside a server/);
		const stats = h.sandbox.dispatchCommand({
			name: 'stats',
			guildId: null,
			userId: USER,
			options: [{ name: 'scope', type: 3, value: 'server' }],
		});
		assert.match((await stats.finalMessage()).content, /`scope:server` works inside a server/);
	});

	it('a forged server-key modal submit without Manage Server stores nothing', async () => {
		const key = createAccount(h, 'forged');
		const submit = h.sandbox.dispatchModalSubmit({
			customId: 'server-key:submit',
			fields: { 'api-key': key },
			userId: USER,
		});
		assert.match((await submit.finalMessage()).content, /Manage Server/);
		assert.equal(await h.bot.ctx.links.getServerLink(h.sandbox.guildIds[0]!), null);
	});

	it('an outdated or foreign button is answered, not dropped', async () => {
		const press = h.sandbox.dispatchButton({ customId: 'stats:share:garbage', userId: USER });
		assert.match((await press.finalMessage()).content, /outdated/);
	});

	it('a component the bot does not handle is answered, not dropped', async () => {
		const select = h.sandbox.dispatchButton({ customId: 'stats:pick', userId: USER, componentType: 3, values: ['x'] });
		const message = await select.finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, /not supported/);
	});

	it('an unexpected failure gets an apology with an incident id that is in the log', async () => {
		const handle = h.sandbox.dispatchCommand({ name: 'no-such-command', userId: USER });
		const message = await handle.finalMessage();
		assert.ok(message.isEphemeral);
		const incident = /incident `([0-9a-f]{8})`/.exec(message.content)?.[1];
		assert.ok(incident, message.content);
		assert.ok(h.logs.some((line) => line.includes(incident) && line.includes('"level":50')));
	});
});

describe('secrets never reach a log line, a reply or the store in clear', () => {
	let h: Harness;
	const seen: InteractionHandle[] = [];
	before(async () => {
		h = await startHarness();
	});
	after(async () => {
		await h.close();
	});

	it('keeps the bot token, the API keys and LINK_SECRET out of logs, replies and the store', async () => {
		const userKey = createAccount(h, 'secretive');
		const serverKey = createAccount(h, 'server-secretive');
		const linked = await linkViaModal(h, userKey, { userId: USER });
		if (linked.submit) seen.push(linked.submit);
		const server = await linkViaModal(h, serverKey, { userId: USER, server: true, permissions: ADMIN_PERMISSIONS });
		if (server.submit) seen.push(server.submit);
		for (const options of [
			[],
			[{ name: 'share', type: 5, value: true }],
			[{ name: 'scope', type: 3, value: 'server' }],
		]) {
			const handle = h.sandbox.dispatchCommand({ name: 'stats', userId: USER, options });
			await handle.finalMessage();
			seen.push(handle);
		}
		const status = h.sandbox.dispatchCommand({
			name: 'server-key',
			subcommand: 'status',
			userId: USER,
			permissions: ADMIN_PERMISSIONS,
		});
		await status.finalMessage();
		seen.push(status);
		// A rejected key and a bad one travel through the error paths too.
		await linkViaModal(h, `${userKey.slice(0, -4)}zzzz`, { userId: USER });

		const secrets = { token: h.botToken, userKey, serverKey, linkSecret: h.linkSecretHex };
		const logs = h.logs.join('\n');
		const replies = JSON.stringify(seen.map((handle) => handle.responses.map((r) => r.data)));
		const store = readStoreBytes(h);
		assert.ok(logs.length > 1000, 'the bot logged something to search');
		assert.ok(store.length > 1000, 'the store wrote something to search');
		for (const [name, secret] of Object.entries(secrets)) {
			assert.ok(!logs.includes(secret), `${name} is not in the logs`);
			assert.ok(!replies.includes(secret), `${name} is not in any reply`);
			assert.ok(!store.includes(secret), `${name} is not in the store`);
			assert.ok(!store.includes(Buffer.from(secret).toString('base64')), `${name} is not in the store as base64`);
		}
	});
});

describe('cooldowns', () => {
	let h: Harness;
	before(async () => {
		h = await startHarness({ env: { STATS_COOLDOWN_SECONDS: '30' } });
	});
	after(async () => {
		await h.close();
	});

	it('a second /stats within the cooldown says when to try again', async () => {
		await h.sandbox.dispatchCommand({ name: 'stats', userId: USER }).finalMessage();
		const second = h.sandbox.dispatchCommand({ name: 'stats', userId: USER });
		const message = await second.finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, /try again in (29|30) s/);
		const other = await h.sandbox.dispatchCommand({ name: 'stats', userId: '330000000000000009' }).finalMessage();
		assert.doesNotMatch(other.content, /try again/, 'cooldowns are per member');
	});

	it('/link has its own cooldown, held by the link action: a second key within it is refused and changes nothing', async () => {
		const key = createAccount(h, 'cooling');
		const first = await linkViaModal(h, key, { userId: USER });
		assert.doesNotMatch(first.message.content, /try again/, "/stats's cooldown is not /link's");
		const second = await linkViaModal(h, createAccount(h, 'other-account'), { userId: USER });
		assert.equal(second.modal.type, 9, 'the modal still opens: the key is what the cooldown holds back');
		assert.ok(second.message.isEphemeral);
		assert.match(second.message.content, /try again in (29|30) s/);
		assert.equal((await h.bot.ctx.links.getUserLink(USER))?.accountName, 'cooling', 'the first link stays');
	});
});
