import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { PermissionsBitField } from 'discord.js';
import {
	ALL_PERMISSIONS,
	BOT_PERMISSIONS,
	channelPermissions,
	MEMBER_PERMISSIONS,
	Permission,
	startDiscordSandbox,
} from '../../sandbox/index.js';
import type { DiscordSandbox, PermissionSubject } from '../../sandbox/index.js';
import { checkAgainstSpec } from '../../sandbox/openapi-validator.js';
import { startTestBot, TINY_PNG } from './test-bot.js';
import type { TestBot } from './test-bot.js';
import { waitUntil } from './raw-gateway.js';

const { ViewChannel, SendMessages, EmbedLinks, AttachFiles, ManageGuild, Administrator } = Permission;
const GUILD = '100';
const MOD = '200';
const HELPER = '201';
const USER = '300';

test("Discord's algorithm: @everyone overwrite, then role overwrites together, then the member's; admins and owners skip them", () => {
	const subject = (memberRoles: string[], extra: Partial<PermissionSubject> = {}): PermissionSubject => ({
		guildId: GUILD,
		ownerId: '999',
		roles: [
			{ id: GUILD, permissions: (ViewChannel | SendMessages).toString() },
			{ id: MOD, permissions: ManageGuild.toString() },
			{ id: HELPER, permissions: '0' },
			{ id: '202', permissions: Administrator.toString() },
		],
		userId: USER,
		memberRoles,
		...extra,
	});
	const everyoneDeny = { id: GUILD, type: 0 as const, allow: '0', deny: SendMessages.toString() };
	const modAllow = { id: MOD, type: 0 as const, allow: SendMessages.toString(), deny: '0' };
	const helperDeny = { id: HELPER, type: 0 as const, allow: '0', deny: SendMessages.toString() };
	const memberDeny = { id: USER, type: 1 as const, allow: '0', deny: ViewChannel.toString() };

	assert.equal(channelPermissions(subject([]), []), ViewChannel | SendMessages);
	assert.equal(channelPermissions(subject([]), [everyoneDeny]), ViewChannel);
	assert.equal(channelPermissions(subject([MOD]), [everyoneDeny, modAllow]), ViewChannel | SendMessages | ManageGuild);
	// Role overwrites are summed before they apply, so one role's allow beats another's deny.
	const both = channelPermissions(subject([MOD, HELPER]), [everyoneDeny, helperDeny, modAllow]);
	assert.equal(both & SendMessages, SendMessages);
	assert.equal(channelPermissions(subject([MOD]), [modAllow, memberDeny]) & ViewChannel, 0n);
	assert.equal(channelPermissions(subject(['202']), [everyoneDeny, memberDeny]), ALL_PERMISSIONS);
	assert.equal(channelPermissions(subject([], { ownerId: USER }), [memberDeny]), ALL_PERMISSIONS);
	assert.equal(
		channelPermissions(subject(['unknown-role']), []),
		ViewChannel | SendMessages,
		'unknown roles grant nothing',
	);
	assert.equal(channelPermissions(subject([MOD], { basePermissions: ViewChannel }), []), ViewChannel);
	assert.equal(ALL_PERMISSIONS, PermissionsBitField.All, 'every permission discord.js knows');
});

let sandbox: DiscordSandbox;
let bot: TestBot;

before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 2, heartbeatIntervalMs: 1000 });
	bot = await startTestBot(sandbox);
});
after(async () => {
	await bot.stop();
	await sandbox.close();
});
beforeEach(() => sandbox.clearRecords());

function post(channelId: string, body: unknown, file?: Buffer): Promise<Response> {
	const headers = { authorization: `Bot ${sandbox.token}` };
	if (!file) {
		return fetch(`${sandbox.apiUrl}/v10/channels/${channelId}/messages`, {
			method: 'POST',
			headers: { ...headers, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	}
	const form = new FormData();
	form.append('files[0]', new Blob([file], { type: 'image/png' }), 'chart.png');
	form.append('payload_json', JSON.stringify(body));
	return fetch(`${sandbox.apiUrl}/v10/channels/${channelId}/messages`, { method: 'POST', headers, body: form });
}

async function refusal(response: Response): Promise<[number, number]> {
	return [response.status, ((await response.json()) as { code: number }).code];
}

test('the default fixtures let the bot post everything; overwrites can take each permission away', async () => {
	const guild = sandbox.guilds[0]!;
	const channelId = guild.channelIds[3]!;
	const embed = { embeds: [{ title: 'Report' }] };
	assert.equal(sandbox.permissionsIn(channelId), BigInt(BOT_PERMISSIONS));
	assert.equal((await post(channelId, { content: 'hello' })).status, 200);

	const bot = sandbox.botUserId;
	sandbox.setChannelOverwrites(channelId, [{ id: bot, type: 1, deny: SendMessages }]);
	assert.deepEqual(await refusal(await post(channelId, { content: 'hello' })), [403, 50013]);

	sandbox.setChannelOverwrites(channelId, [{ id: guild.botRoleId!, type: 0, deny: EmbedLinks }]);
	assert.equal((await post(channelId, { content: 'text only' })).status, 200);
	assert.deepEqual(await refusal(await post(channelId, embed)), [403, 50013]);

	sandbox.setChannelOverwrites(channelId, [{ id: guild.id, type: 0, deny: AttachFiles }]);
	assert.equal((await post(channelId, embed)).status, 200);
	assert.deepEqual(await refusal(await post(channelId, { content: 'chart' }, TINY_PNG)), [403, 50013]);

	sandbox.setChannelOverwrites(channelId, [{ id: guild.id, type: 0, deny: ViewChannel }]);
	assert.deepEqual(await refusal(await post(channelId, { content: 'hello' })), [403, 50001], 'Missing Access');

	sandbox.setChannelOverwrites(channelId, [
		{ id: guild.id, type: 0, deny: ViewChannel },
		{ id: bot, type: 1, allow: ViewChannel },
	]);
	assert.equal((await post(channelId, { content: 'hello' })).status, 200, "the member's own overwrite comes last");
	assert.equal(sandbox.channelMessages(channelId).length, 4);
	assert.deepEqual(
		sandbox.rejections.map((r) => r.code),
		[50013, 50013, 50013, 50001],
	);
	assert.deepEqual(sandbox.violations, []);
	sandbox.setChannelOverwrites(channelId, []);
});

test('a category takes no messages (400 50008); a voice channel does (text in voice)', async () => {
	const guild = sandbox.guilds[0]!;
	assert.deepEqual(await refusal(await post(guild.categoryIds[0]!, { content: 'x' })), [400, 50008]);
	assert.equal((await post(guild.voiceChannelIds[0]!, { content: 'x' })).status, 200);
});

test("interactions carry the member's roles and the permissions computed from them, and the bot's in that channel", async () => {
	const guild = sandbox.guilds[1]!;
	const channelId = guild.channelIds[2]!;
	const manager = sandbox.addRole(guild.id, { name: 'Manager', permissions: ManageGuild });
	await waitUntil(() => bot.client.guilds.cache.get(guild.id)!.roles.cache.has(manager.id));
	sandbox.setMemberRoles(guild.id, USER, [manager.id, '320000000000000011']);
	sandbox.setChannelOverwrites(channelId, [{ id: sandbox.botUserId, type: 1, deny: EmbedLinks }]);

	const handle = sandbox.dispatchCommand({ name: 'raw', guildId: guild.id, channelId, userId: USER });
	const member = handle.payload.member as { roles: string[]; permissions: string; user: { id: string } };
	assert.deepEqual(member.roles, [manager.id, '320000000000000011']);
	assert.equal(BigInt(member.permissions), BigInt(MEMBER_PERMISSIONS) | ManageGuild);
	assert.equal(BigInt(handle.payload.app_permissions as string) & EmbedLinks, 0n);
	assert.equal((handle.payload.channel as { permission_overwrites: unknown[] }).permission_overwrites.length, 1);

	const explicit = sandbox.dispatchCommand({ name: 'raw', guildId: guild.id, userId: USER, permissions: '0' });
	assert.equal((explicit.payload.member as { permissions: string }).permissions, '0', 'a given value still wins');

	const stranger = sandbox.dispatchCommand({ name: 'raw', guildId: guild.id, userId: '310000000000000777' });
	assert.deepEqual((stranger.payload.member as { roles: string[] }).roles, []);
	assert.ok(sandbox.member(guild.id, '310000000000000777'), 'whoever used a command is a member');
	sandbox.setChannelOverwrites(channelId, []);
});

test('GET /guilds/{id}, its members and roles answer with the bot token as Discord does', async () => {
	const guild = sandbox.guilds[0]!;
	const get = (path: string) =>
		fetch(`${sandbox.apiUrl}/v10${path}`, { headers: { authorization: `Bot ${sandbox.token}` } });
	sandbox.setGuildLocale(guild.id, 'de');
	const body = (await (await get(`/guilds/${guild.id}?with_counts=true`)).json()) as Record<string, unknown>;
	assert.deepEqual(checkAgainstSpec('GuildWithCountsResponse', body), []);
	assert.equal(body.preferred_locale, 'de');
	assert.equal(body.owner_id, guild.ownerId);
	assert.equal(typeof body.approximate_member_count, 'number');
	const roles = body.roles as { id: string; permissions: string }[];
	assert.equal(roles.find((role) => role.id === guild.id)?.permissions, MEMBER_PERMISSIONS);
	for (const role of roles) assert.deepEqual(checkAgainstSpec('GuildRoleResponse', role), []);
	assert.deepEqual((await (await get(`/guilds/${guild.id}/roles`)).json()) as unknown[], roles);

	const me = (await (await get(`/guilds/${guild.id}/members/${sandbox.botUserId}`)).json()) as { roles: string[] };
	assert.deepEqual(checkAgainstSpec('GuildMemberResponse', me), []);
	assert.deepEqual(me.roles, [guild.botRoleId]);
	sandbox.setMember(guild.id, USER, { roles: [guild.botRoleId!], nick: 'Mod' });
	const member = (await (await get(`/guilds/${guild.id}/members/${USER}`)).json()) as Record<string, unknown>;
	assert.deepEqual([member.nick, member.roles, (member.user as { id: string }).id], ['Mod', [guild.botRoleId], USER]);
	assert.deepEqual(checkAgainstSpec('GuildMemberResponse', member), []);

	sandbox.removeMember(guild.id, USER);
	assert.deepEqual(await refusal(await get(`/guilds/${guild.id}/members/${USER}`)), [404, 10007]);
	assert.deepEqual(await refusal(await get('/guilds/123456789012345678')), [404, 10004]);
	assert.deepEqual(await refusal(await get('/guilds/123456789012345678/members/1')), [404, 10004]);
	assert.equal((await get(`/guilds/${guild.id}`)).status, 200);
	assert.equal(
		(await fetch(`${sandbox.apiUrl}/v10/guilds/${guild.id}`)).status,
		401,
		'the guild routes need the bot token',
	);
});

test("a change to the bot's own roles reaches discord.js (GUILD_MEMBER_UPDATE) and its permissions", async () => {
	const guild = sandbox.guilds[1]!;
	sandbox.setMemberRoles(guild.id, sandbox.botUserId, []);
	const cached = () => bot.client.guilds.cache.get(guild.id)!.members.me!;
	await waitUntil(() => cached().roles.cache.size === 1);
	assert.equal(sandbox.guildPermissions(guild.id), BigInt(MEMBER_PERMISSIONS));
	assert.equal(cached().permissions.bitfield, BigInt(MEMBER_PERMISSIONS), 'discord.js computes the same');
	sandbox.setMember(guild.id, USER, { owner: true });
	assert.equal(sandbox.guildPermissions(guild.id, USER), ALL_PERMISSIONS);
	await waitUntil(() => bot.client.guilds.cache.get(guild.id)!.ownerId === USER);
	assert.throws(() => sandbox.removeMember(guild.id, USER), /owns/);
	sandbox.setMemberRoles(guild.id, sandbox.botUserId, [guild.botRoleId!]);
	await waitUntil(() => cached().roles.cache.has(guild.botRoleId!));
	assert.equal(cached().permissions.bitfield, BigInt(BOT_PERMISSIONS));
});
