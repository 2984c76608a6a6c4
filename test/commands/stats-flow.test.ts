import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import {
	ADMIN_PERMISSIONS,
	assertAcknowledgedInTime,
	createAccount,
	EPHEMERAL,
	linkViaModal,
	startHarness,
	type Harness,
} from '../app/harness.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ADMIN = '310000000000000099';

// Every test sets up the links it needs with members and servers of its own, so any one of them runs alone
// (`--test-name-pattern`) or in any order and still means what it says.
describe('the bot end to end, through the Discord stand-in and the bundled stats service', () => {
	let h: Harness;
	let nextUser = 0;
	/** A member no other test uses. */
	const newUser = () => `3100000000000${String((nextUser += 1)).padStart(5, '0')}`;
	/** The first server keeps its server key only within a test; the second never gets one. */
	const linkedServer = () => h.sandbox.guildIds[0]!;
	const unlinkedServer = () => h.sandbox.guildIds[1]!;

	/** A new member linked to a new account through /link and its modal. */
	async function linkedUser(accountName = 'Alice_Ads'): Promise<{ userId: string; apiKey: string }> {
		const userId = newUser();
		const apiKey = createAccount(h, accountName);
		const { message } = await linkViaModal(h, apiKey, { userId });
		assert.match(message.content, /Linked your account/);
		return { userId, apiKey };
	}

	/** Links the first server to a new account through /server-key set. */
	async function linkServer(accountName = 'Pixel_Community'): Promise<{ apiKey: string; reply: string }> {
		const apiKey = createAccount(h, accountName);
		const { message } = await linkViaModal(h, apiKey, {
			userId: ADMIN,
			guildId: linkedServer(),
			server: true,
			permissions: ADMIN_PERMISSIONS,
		});
		assert.match(message.content, /Linked this server/);
		return { apiKey, reply: message.content };
	}

	before(async () => {
		h = await startHarness();
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	it('registers every command with the fixed names and options', () => {
		const commands = h.sandbox.registeredCommands();
		assert.deepEqual(commands.map((c) => c.name).sort(), [
			'alert',
			'board',
			'digest',
			'export',
			'goal',
			'help',
			'link',
			'note',
			'privacy',
			'report',
			'server-key',
			'settings',
			'statchannel',
			'stats',
			'unlink',
			'webhook',
		]);
		const stats = commands.find((c) => c.name === 'stats') as { options: { name: string; choices?: unknown[] }[] };
		assert.deepEqual(
			stats.options.map((o) => o.name),
			['scope', 'days', 'share', 'metric', 'from', 'to'],
		);
		const days = stats.options.find((o) => o.name === 'days') as { choices: { value: number }[] };
		assert.deepEqual(
			days.choices.map((c) => c.value),
			[7, 14, 30, 90, 180, 365],
		);
		const serverKeyCommand = commands.find((c) => c.name === 'server-key') as { default_member_permissions: string };
		assert.equal(serverKeyCommand.default_member_permissions, ADMIN_PERMISSIONS);
	});

	it('stats answers privately with a how-to when nothing is linked', async () => {
		const handle = h.sandbox.dispatchCommand({ name: 'stats', userId: newUser(), guildId: unlinkedServer() });
		await assertAcknowledgedInTime(handle);
		const message = await handle.finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, /You have not linked an API key yet\. Run `\/link`/);
		assert.doesNotMatch(message.content, /scope:server/, 'no server key there, so no hint about it');
	});

	it('link opens a modal and the submit links the account by name', async () => {
		const userId = newUser();
		const apiKey = createAccount(h, 'Alice_Ads');
		const { modal, message } = await linkViaModal(h, apiKey, { userId });
		assert.equal(modal.type, 9);
		assert.ok(message.isEphemeral);
		assert.match(message.content, /Linked your account to \*\*Alice\\_Ads\*\*/);
		assert.match(message.content, new RegExp(`…${apiKey.slice(-4)}`));
		assert.ok(!message.content.includes(apiKey));
		assert.notEqual(await h.bot.ctx.links.getUserLink(userId), null);
	});

	it('stats replies privately with the period totals and the chart attached as a PNG', async () => {
		const { userId } = await linkedUser();
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId,
			options: [{ name: 'days', type: 4, value: 14 }],
		});
		await assertAcknowledgedInTime(handle);
		const message = await handle.finalMessage();
		assert.ok(message.isEphemeral);
		assert.equal(message.embeds.length, 1);
		const embed = message.embeds[0] as { fields: { name: string; value: string }[]; image?: { url: string } };
		const text = JSON.stringify(embed);
		assert.match(text, /Alice\\\\_Ads/, 'account name, markdown escaped');
		for (const period of ['Today', '7 days', '30 days', 'All time']) assert.match(text, new RegExp(period));
		assert.equal(message.files.length, 1);
		const [file] = message.files;
		assert.ok(file!.bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'a real PNG');
		assert.ok(file!.bytes.length > 2000);
		assert.equal(file!.contentType, 'image/png', 'sent with its type, not left to be sniffed');
		assert.equal(message.attachments[0]?.filename, file!.name);
		const sent = handle.edits.at(-1)!.data as { embeds: { image?: { url: string } }[] };
		assert.equal(sent.embeds[0]?.image?.url, `attachment://${file!.name}`, 'the embed points at the uploaded chart');
		assert.ok(embed.image?.url.endsWith(`/${file!.name}`), 'Discord serves it from its CDN');
		const share = JSON.stringify(message.components);
		assert.match(share, /Share in channel/);
		assert.match(share, new RegExp(`stats:share:${userId}:me:14:sends`));
	});

	it('stats in a DM shows the figures without a Share button: there is no channel to share to', async () => {
		const { userId } = await linkedUser();
		const handle = h.sandbox.dispatchCommand({ name: 'stats', userId, guildId: null });
		const message = await handle.finalMessage();
		assert.equal(message.embeds.length, 1, 'the figures are there');
		assert.equal(message.files.length, 1);
		assert.deepEqual(message.components, []);
		const sent = handle.edits
			.filter((edit) => edit.status < 300)
			.map((edit) => edit.data as { components?: unknown[] });
		assert.ok(
			sent.every((data) => (data.components ?? []).length === 0),
			'no edit ever carried a component',
		);
	});

	it('the share button posts a public copy once, for the invoker only', async () => {
		const { userId } = await linkedUser();
		const buttonId = `stats:share:${userId}:me:30:sends`;
		const privateReply = await h.sandbox.dispatchCommand({ name: 'stats', userId }).finalMessage();
		assert.match(JSON.stringify(privateReply.components), new RegExp(buttonId));

		const stranger = h.sandbox.dispatchButton({ customId: buttonId, userId: newUser(), messageId: privateReply.id });
		const refused = await stranger.finalMessage();
		assert.ok(refused.isEphemeral);
		assert.match(refused.content, /Only the member who ran `\/stats` can share/);

		const channelId = h.sandbox.guilds[0]!.defaultChannelId;
		const before = h.sandbox.channelMessages(channelId).length;
		const press = h.sandbox.dispatchButton({ customId: buttonId, userId, messageId: privateReply.id });
		assert.equal((await press.firstResponse()).type, 6, 'acknowledged as an update, adding no message');
		await assertAcknowledgedInTime(press);
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300) && x.edits.some((e) => e.status < 300));
		const posted = h.sandbox.channelMessages(channelId).slice(before);
		assert.equal(posted.length, 1);
		assert.equal(posted[0]!.isEphemeral, false);
		assert.equal(posted[0]!.embeds.length, 1);
		assert.equal(posted[0]!.files.length, 1);
		assert.deepEqual(posted[0]!.components, [], 'the public copy carries no share button');
		assert.deepEqual(privateReply.components, [], 'the private reply lost its button');
		assert.equal(privateReply.embeds.length, 1, 'and kept its figures');
	});

	it('stats share:true keeps the deferral private and posts the result publicly', async () => {
		const { userId } = await linkedUser();
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId,
			options: [{ name: 'share', type: 5, value: true }],
		});
		const first = await handle.firstResponse();
		assert.equal(first.type, 5);
		assert.equal(first.flags & EPHEMERAL, EPHEMERAL);
		await handle.waitFor((x) => x.followUps.some((f) => f.status < 300));
		const publicCopy = handle.followUps.find((f) => f.status < 300)!;
		assert.equal(publicCopy.flags & EPHEMERAL, 0);
		assert.equal(publicCopy.files.length, 1);
		assert.match((await handle.finalMessage()).content, /Posted in the channel/);
	});

	it('server-key set is refused without Manage Server and nothing is stored', async () => {
		const guildId = linkedServer();
		const stored = await h.bot.ctx.links.getServerLink(guildId);
		const apiKey = createAccount(h, 'Refused_Server');
		const { modal, message } = await linkViaModal(h, apiKey, { userId: newUser(), guildId, server: true });
		assert.equal(modal.type, 4);
		assert.ok(message.isEphemeral);
		assert.match(message.content, /Manage Server/);
		assert.deepEqual(await h.bot.ctx.links.getServerLink(guildId), stored, 'the server link is unchanged');
	});

	it('server-key set with Manage Server links the server, and status names account, admin and time', async () => {
		const { apiKey, reply: linked } = await linkServer();
		assert.match(linked, /Linked this server to \*\*Pixel\\_Community\*\*/);
		const status = h.sandbox.dispatchCommand({
			name: 'server-key',
			subcommand: 'status',
			userId: ADMIN,
			guildId: linkedServer(),
			permissions: ADMIN_PERMISSIONS,
		});
		const reply = await status.finalMessage();
		assert.ok(reply.isEphemeral);
		assert.match(reply.content, /Pixel\\_Community/);
		assert.match(reply.content, new RegExp(`<@${ADMIN}>`));
		assert.match(reply.content, /<t:\d+:R>/);
		assert.ok(!reply.content.includes(apiKey));
	});

	it('a member without a link is pointed at scope:server, which shows the server account', async () => {
		await linkServer();
		const member = newUser();
		const guildId = linkedServer();
		const hint = await h.sandbox.dispatchCommand({ name: 'stats', userId: member, guildId }).finalMessage();
		assert.match(hint.content, /scope:server/);
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId: member,
			guildId,
			options: [{ name: 'scope', type: 3, value: 'server' }],
		});
		const message = await handle.finalMessage();
		assert.match(JSON.stringify(message.embeds), /Pixel/);
		assert.equal(message.files.length, 1);
	});

	it('the server key is per server: another server has none', async () => {
		await linkServer();
		const { userId } = await linkedUser();
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId,
			guildId: unlinkedServer(),
			options: [{ name: 'scope', type: 3, value: 'server' }],
		});
		assert.match((await handle.finalMessage()).content, /This server has no API key linked yet/);
	});

	it('server-key remove forgets the server key', async () => {
		await linkServer();
		const guildId = linkedServer();
		assert.notEqual(await h.bot.ctx.links.getServerLink(guildId), null);
		const remove = h.sandbox.dispatchCommand({
			name: 'server-key',
			subcommand: 'remove',
			userId: ADMIN,
			guildId,
			permissions: ADMIN_PERMISSIONS,
		});
		assert.match((await remove.finalMessage()).content, /Removed the server's API key/);
		assert.equal(await h.bot.ctx.links.getServerLink(guildId), null);
	});

	it('unlink removes the link, and stats then gives the how-to', async () => {
		const { userId } = await linkedUser();
		const unlink = await h.sandbox.dispatchCommand({ name: 'unlink', userId }).finalMessage();
		assert.ok(unlink.isEphemeral);
		assert.match(unlink.content, /Unlinked/);
		assert.equal(await h.bot.ctx.links.getUserLink(userId), null);
		const again = await h.sandbox.dispatchCommand({ name: 'unlink', userId }).finalMessage();
		assert.match(again.content, /You had no key linked/);
		const stats = await h.sandbox.dispatchCommand({ name: 'stats', userId }).finalMessage();
		assert.match(stats.content, /You have not linked an API key yet/);
	});

	it("a member's digest follows the Discord locale they last used, whatever the command", async () => {
		const { userId } = await linkedUser();
		const on = await h.sandbox
			.dispatchCommand({ name: 'digest', subcommand: 'on', userId, locale: 'en-US' })
			.finalMessage();
		assert.match(on.content, /digest/i);
		const digests = digestStoreOf(h.bot.ctx);
		assert.equal((await digests.get(userId))?.locale, 'en-US');
		await h.sandbox.dispatchCommand({ name: 'stats', userId, locale: 'ja' }).finalMessage();
		// Kept after the answer is sent, so the test waits for it rather than for the reply.
		const deadline = Date.now() + 5000;
		while ((await digests.get(userId))?.locale !== 'ja' && Date.now() < deadline) await delay(20);
		assert.equal((await digests.get(userId))?.locale, 'ja');
		const stranger = newUser();
		await h.sandbox.dispatchCommand({ name: 'help', userId: stranger, locale: 'de' }).finalMessage();
		await delay(100);
		assert.equal(await digests.get(stranger), null, 'a member without a digest gets none');
	});

	it('help answers privately', async () => {
		const message = await h.sandbox.dispatchCommand({ name: 'help' }).finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, /\/server-key/);
	});
});
