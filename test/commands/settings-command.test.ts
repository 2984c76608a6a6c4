import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onGuildResourceDeleted } from '../../src/settings/deleted-resources.js';
import { deletedResourceOf } from '../../src/discord/gateway.js';
import { DEFAULT_SETTINGS } from '../../src/settings/settings-record.js';
import { waitUntil } from '../links/wait-until.js';
import {
	assertNoViolationsBesidesRoleLists,
	dispatchGatewayEvent,
	withMemberRoles,
} from '../settings/sandbox-members.js';
import { translator } from '../../src/i18n/index.js';
import { ADMIN_PERMISSIONS, EPHEMERAL, startHarness, type Harness } from '../app/harness.js';

const en = translator('en-US');

const ADMIN = '310000000000000011';
const MEMBER = '310000000000000012';
const GONE_CHANNEL = '499999999999999999';

type Option = { name: string; type: number; value: string | number };

describe('/settings through the Discord stand-in', () => {
	let h: Harness;
	let guildId: string;
	let shareChannel: string;
	let auditChannel: string;
	/** A role of the server anyone can be given: the action asks Discord for the role a change sets. */
	let role: string;

	before(async () => {
		h = await startHarness();
		withMemberRoles(h.sandbox);
		guildId = h.sandbox.guildIds[0]!;
		[, shareChannel, auditChannel] = h.sandbox.guilds[0]!.channelIds as [string, string, string];
		const roles = h.sandbox.guilds[0]!.roles() as { id: string; managed: boolean }[];
		role = roles.find((candidate) => !candidate.managed && candidate.id !== guildId)!.id;
		// What the lead wires in src/app: the gateway's raw deletions reach the settings.
		h.bot.client!.on('raw', (packet: { t?: string; d?: unknown }) => {
			const resource = deletedResourceOf(packet);
			if (resource) void onGuildResourceDeleted(h.bot.ctx, resource);
		});
	});
	after(async () => {
		assertNoViolationsBesidesRoleLists(h.sandbox);
		await h.close();
	});

	const settings = (subcommand: string, options: Option[] = [], who = ADMIN, permissions = ADMIN_PERMISSIONS) =>
		h.sandbox
			.dispatchCommand({ name: 'settings', subcommand, options, userId: who, permissions, guildId })
			.finalMessage();
	const auditLines = () => h.sandbox.channelMessages(auditChannel).map((m) => m.content);

	it('registers /settings for Manage Server, in servers only, with the fixed options and choices', () => {
		const command = h.sandbox.registeredCommands().find((c) => c.name === 'settings') as {
			default_member_permissions: string;
			contexts: number[];
			options: {
				name: string;
				options?: { name: string; type: number; choices?: { name: string; value: unknown }[] }[];
			}[];
		};
		assert.equal(command.default_member_permissions, ADMIN_PERMISSIONS);
		assert.deepEqual(command.contexts, [0]);
		assert.deepEqual(
			command.options.map((o) => o.name),
			['show', 'set', 'reset'],
		);
		const set = command.options.find((o) => o.name === 'set')!.options!;
		assert.deepEqual(
			set.map((o) => [o.name, o.type]),
			[
				['server-stats-role', 8],
				['share-role', 8],
				['share-channel', 7],
				['default-days', 4],
				['default-metric', 3],
				['language', 3],
				['audit-channel', 7],
			],
		);
		const choices = (name: string) => set.find((o) => o.name === name)!.choices!;
		assert.deepEqual(
			choices('default-days').map((c) => c.value),
			[7, 14, 30, 90, 180, 365],
		);
		assert.deepEqual(
			choices('default-metric').map((c) => c.value),
			['sends', 'joins', 'conversion'],
		);
		assert.deepEqual(
			choices('language').map((c) => c.value),
			['auto', 'en-US', 'de', 'fr', 'es-ES', 'pt-BR', 'ru', 'tr', 'ja'],
		);
		assert.equal(choices('language').find((c) => c.value === 'de')!.name, 'Deutsch', 'each language in its own words');
	});

	it('refuses a member without Manage Server, even with the command visible, and outside servers', async () => {
		const refused = await settings('show', [], MEMBER, '0');
		assert.ok(refused.isEphemeral);
		assert.match(refused.content, /Manage Server/);
		const dm = await h.sandbox
			.dispatchCommand({
				name: 'settings',
				subcommand: 'show',
				userId: ADMIN,
				guildId: null,
				permissions: ADMIN_PERMISSIONS,
			})
			.finalMessage();
		assert.match(dm.content, /server/i);
		assert.doesNotMatch(dm.content, /Settings of this server/);
	});

	it('show lists the defaults privately', async () => {
		const shown = await settings('show');
		assert.equal(shown.flags & EPHEMERAL, EPHEMERAL);
		assert.match(shown.content, /Settings of this server/);
		assert.match(shown.content, /scope:server`: everyone/);
		assert.match(shown.content, /Where public posts go: any channel/);
		assert.match(shown.content, /30 days/);
		assert.match(shown.content, /Audit channel: off/);
		assert.match(shown.content, /auto \(the server's language: English \(US\)\)/);
	});

	it('set takes any combination, answers with each change, and posts one audit line without any key', async () => {
		const reply = await settings('set', [
			{ name: 'share-role', type: 8, value: role },
			{ name: 'share-channel', type: 7, value: shareChannel },
			{ name: 'audit-channel', type: 7, value: auditChannel },
			{ name: 'default-days', type: 4, value: 90 },
			{ name: 'language', type: 3, value: 'de' },
		]);
		assert.ok(reply.isEphemeral);
		assert.match(reply.content, /Settings updated:/);
		assert.match(reply.content, new RegExp(`\`share-role\`: <@&${role}>`));
		assert.match(reply.content, new RegExp(`\`share-channel\`: <#${shareChannel}>`));
		assert.match(reply.content, /`default-days`: 90 days/);
		assert.match(reply.content, /`language`: Deutsch/);
		await waitUntil(() => auditLines().length === 1, 5000);
		const [line] = auditLines();
		// The server chose German for its public texts, the audit line included.
		assert.match(line!, new RegExp(`^<@${ADMIN}> hat die Einstellungen geändert, <t:\\d+:F>: `));
		assert.match(line!, new RegExp(`<#${shareChannel}>`));
		assert.equal(h.sandbox.channelMessages(auditChannel)[0]!.isEphemeral, false);
		const stored = await h.bot.ctx.settings.get(guildId);
		assert.equal(stored.shareRoleId, role);
		assert.equal(stored.defaultDays, 90);
		assert.equal(stored.language, 'de');
	});

	it('set without any option says how to use it and changes nothing', async () => {
		const reply = await settings('set');
		assert.match(reply.content, /Nothing to change/);
		assert.equal(auditLines().length, 1);
	});

	it('set refuses @everyone as a role, with the words the manage page uses, and changes nothing', async () => {
		const before = await h.bot.ctx.settings.get(guildId);
		const reply = await settings('set', [{ name: 'server-stats-role', type: 8, value: guildId }]);
		assert.ok(reply.isEphemeral);
		assert.match(reply.content, /Choose one of this server's roles: @everyone limits no one/);
		assert.deepEqual(await h.bot.ctx.settings.get(guildId), before);
		assert.equal(auditLines().length, 1);
	});

	it("set refuses a bot's own (managed) role in the words the manage page uses, and changes nothing", async () => {
		const before = await h.bot.ctx.settings.get(guildId);
		const botRole = h.sandbox.guilds[0]!.botRoleId!;
		const reply = await settings('set', [{ name: 'share-role', type: 8, value: botRole }]);
		assert.ok(reply.isEphemeral);
		assert.equal(reply.content, en('settings.roleManaged'));
		assert.deepEqual(await h.bot.ctx.settings.get(guildId), before);
		assert.equal(auditLines().length, 1);
	});

	it('a role deleted on Discord (GUILD_ROLE_DELETE) counts as unset, and show says it was deleted', async () => {
		dispatchGatewayEvent(h.sandbox, 'GUILD_ROLE_DELETE', { guild_id: guildId, role_id: role }, guildId);
		await waitUntil(async () => (await h.bot.ctx.settings.get(guildId)).shareRoleId === null, 5000);
		const shown = await settings('show');
		assert.match(shown.content, /Who may post publicly: everyone \(the role set before was deleted\)/);
	});

	it('a channel deleted on Discord (CHANNEL_DELETE) counts as unset, and show says it was deleted', async () => {
		dispatchGatewayEvent(h.sandbox, 'CHANNEL_DELETE', { id: shareChannel, guild_id: guildId, type: 0 }, guildId);
		await waitUntil(async () => (await h.bot.ctx.settings.get(guildId)).shareChannelId === null, 5000);
		const shown = await settings('show');
		assert.match(shown.content, /Where public posts go: any channel \(the channel set before was deleted\)/);
	});

	it('a channel Discord answers 404 for when read is shown as deleted and unset', async () => {
		await h.bot.ctx.settings.update(guildId, { shareChannelId: GONE_CHANNEL });
		const shown = await settings('show');
		assert.match(shown.content, /any channel \(the channel set before was deleted\)/);
		assert.equal((await h.bot.ctx.settings.get(guildId)).shareChannelId, null);
		assert.match(shown.content, new RegExp(`Audit channel: <#${auditChannel}>`), 'an existing channel stays');
	});

	it('reset asks first; a press without Manage Server any more changes nothing', async () => {
		const confirm = await settings('reset');
		assert.ok(confirm.isEphemeral);
		assert.match(confirm.content, /back to its default/);
		const resetId = JSON.stringify(confirm.components).match(/settings:reset:\d+/)![0];
		const demoted = h.sandbox.dispatchButton({
			customId: resetId,
			userId: ADMIN,
			permissions: '0',
			messageId: confirm.id,
		});
		assert.match((await demoted.finalMessage()).content, /Manage Server/);
		assert.equal((await h.bot.ctx.settings.get(guildId)).language, 'de');
	});

	it('reset by an admin puts everything back, and the old audit channel gets the line', async () => {
		const confirm = await settings('reset');
		const resetId = JSON.stringify(confirm.components).match(/settings:reset:\d+/)![0];
		const press = h.sandbox.dispatchButton({
			customId: resetId,
			userId: ADMIN,
			permissions: ADMIN_PERMISSIONS,
			messageId: confirm.id,
		});
		await press.waitFor((x) => x.callbacks.some((c) => c.status < 300));
		assert.match(confirm.content, /All settings of this server are back to their defaults/);
		assert.deepEqual(confirm.components, []);
		assert.deepEqual(await h.bot.ctx.settings.get(guildId), DEFAULT_SETTINGS);
		await waitUntil(() => auditLines().length === 2, 5000);
		assert.match(auditLines()[1]!, new RegExp(`^<@${ADMIN}> hat alle Einstellungen`));
	});

	it('cancel changes nothing', async () => {
		await settings('set', [{ name: 'default-metric', type: 3, value: 'joins' }]);
		const confirm = await settings('reset');
		const press = h.sandbox.dispatchButton({ customId: 'settings:cancel', userId: ADMIN, messageId: confirm.id });
		await press.waitFor((x) => x.callbacks.some((c) => c.status < 300));
		assert.match(confirm.content, /Nothing was changed/);
		assert.equal((await h.bot.ctx.settings.get(guildId)).defaultMetric, 'joins');
	});
});
