import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { onGuildResourceDeleted } from '../../src/settings/deleted-resources.js';
import { deletedResourceOf } from '../../src/discord/gateway.js';
import { waitUntil } from '../links/wait-until.js';
import {
	assertNoViolationsBesidesRoleLists,
	dispatchGatewayEvent,
	withMemberRoles,
} from '../settings/sandbox-members.js';
import { ADMIN_PERMISSIONS, createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';

const ADMIN = '310000000000000021';
const MEMBER = '310000000000000022';
const STATS_ROLE = '320000000000000011';
const SHARE_ROLE = '320000000000000012';

describe('access rules on /stats and Share, through the Discord stand-in', () => {
	let h: Harness;
	let roles: Map<string, string[]>;
	let guildId: string;
	let here: string;
	let shareChannel: string;

	before(async () => {
		h = await startHarness();
		roles = withMemberRoles(h.sandbox);
		guildId = h.sandbox.guildIds[0]!;
		here = h.sandbox.guilds[0]!.defaultChannelId;
		shareChannel = h.sandbox.guilds[0]!.channelIds[1]!;
		await linkViaModal(h, createAccount(h, 'Pixel_Community'), {
			userId: ADMIN,
			server: true,
			permissions: ADMIN_PERMISSIONS,
		});
		await linkViaModal(h, createAccount(h, 'Member_Ads'), { userId: MEMBER });
		h.bot.client!.on('raw', (packet: { t?: string; d?: unknown }) => {
			const resource = deletedResourceOf(packet);
			if (resource) void onGuildResourceDeleted(h.bot.ctx, resource);
		});
	});
	beforeEach(async () => {
		await h.bot.ctx.settings.reset(guildId);
		roles.clear();
	});
	after(async () => {
		assertNoViolationsBesidesRoleLists(h.sandbox);
		await h.close();
	});

	type Option = { name: string; type: number; value: string | number | boolean };
	const stats = (options: Option[], who = MEMBER, where: { channelId?: string; permissions?: string } = {}) =>
		h.sandbox.dispatchCommand({ name: 'stats', userId: who, guildId, options, ...where });
	const serverScope: Option = { name: 'scope', type: 3, value: 'server' };
	const shareTrue: Option = { name: 'share', type: 5, value: true };
	const publicCount = () =>
		h.sandbox.channelMessages(here).filter((m) => !m.isEphemeral).length +
		h.sandbox.channelMessages(shareChannel).filter((m) => !m.isEphemeral).length;
	const shareId = (message: { components: unknown[] }) =>
		JSON.stringify(message.components).match(/stats:share:[^"]+/)?.[0] ?? null;

	it('scope:server needs the server-stats role or Manage Server; the refusal names the role and shows nothing', async () => {
		await h.bot.ctx.settings.update(guildId, { serverStatsRoleId: STATS_ROLE });
		const refused = await stats([serverScope]).finalMessage();
		assert.ok(refused.isEphemeral);
		assert.match(refused.content, new RegExp(`Only members with <@&${STATS_ROLE}> \\(or Manage Server\\)`));
		assert.deepEqual([refused.embeds.length, refused.files.length, refused.components.length], [0, 0, 0]);

		roles.set(MEMBER, [STATS_ROLE]);
		assert.equal((await stats([serverScope]).finalMessage()).embeds.length, 1, 'with the role');
		roles.clear();
		const admin = await stats([serverScope], ADMIN, { permissions: ADMIN_PERMISSIONS }).finalMessage();
		assert.equal(admin.embeds.length, 1, 'Manage Server without the role');
		assert.equal((await stats([]).finalMessage()).embeds.length, 1, 'scope:me is not the server rule');
	});

	it('share:true without the share role is refused privately and posts nothing', async () => {
		await h.bot.ctx.settings.update(guildId, { shareRoleId: SHARE_ROLE });
		const before = publicCount();
		const refused = await stats([shareTrue]).finalMessage();
		assert.ok(refused.isEphemeral);
		assert.match(refused.content, new RegExp(`<@&${SHARE_ROLE}>`));
		assert.deepEqual([refused.embeds.length, refused.files.length], [0, 0]);
		assert.equal(publicCount(), before);
		const noButton = await stats([]).finalMessage();
		assert.equal(shareId(noButton), null, 'no Share button that would be refused');
	});

	it('a member whose share role is removed between /stats and the Share press posts nothing', async () => {
		await h.bot.ctx.settings.update(guildId, { shareRoleId: SHARE_ROLE });
		roles.set(MEMBER, [SHARE_ROLE]);
		const reply = await stats([]).finalMessage();
		const buttonId = shareId(reply);
		assert.ok(buttonId, 'offered while the member holds the role');
		roles.set(MEMBER, []);
		const before = publicCount();
		const press = h.sandbox.dispatchButton({ customId: buttonId, userId: MEMBER, messageId: reply.id });
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300));
		const note = press.followUps.find((f) => f.status < 300)!;
		assert.ok(note.flags & 64, 'the refusal is private');
		assert.match(String(note.data.content), new RegExp(`<@&${SHARE_ROLE}>`));
		assert.equal(publicCount(), before);

		roles.set(MEMBER, [SHARE_ROLE]);
		const again = h.sandbox.dispatchButton({ customId: buttonId, userId: MEMBER, messageId: reply.id });
		await again.waitFor((x) => x.followUps.some((f) => f.status < 300 && !(f.flags & 64)));
		assert.equal(publicCount(), before + 1, 'given back, the press posts');
	});

	it('a member whose server-stats role is removed before the Share press of a server reply posts nothing', async () => {
		await h.bot.ctx.settings.update(guildId, { serverStatsRoleId: STATS_ROLE });
		roles.set(MEMBER, [STATS_ROLE]);
		const reply = await stats([serverScope]).finalMessage();
		const buttonId = shareId(reply)!;
		assert.match(buttonId, /:server:/);
		roles.set(MEMBER, []);
		const before = publicCount();
		const press = h.sandbox.dispatchButton({ customId: buttonId, userId: MEMBER, messageId: reply.id });
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300));
		assert.match(String(press.followUps.find((f) => f.status < 300)!.data.content), new RegExp(`<@&${STATS_ROLE}>`));
		assert.equal(publicCount(), before);
	});

	it('share:true outside the share channel answers privately with a note naming the channel', async () => {
		await h.bot.ctx.settings.update(guildId, { shareChannelId: shareChannel });
		const before = publicCount();
		const message = await stats([shareTrue]).finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, new RegExp(`only to <#${shareChannel}>, so here is your result privately`));
		assert.equal(message.embeds.length, 1, 'the figures, privately');
		assert.equal(publicCount(), before, 'nothing public, here or there');

		const inChannel = stats([shareTrue], MEMBER, { channelId: shareChannel });
		await inChannel.waitFor((x) => x.followUps.some((f) => f.status < 300 && !(f.flags & 64)));
		assert.equal(h.sandbox.channelMessages(shareChannel).filter((m) => !m.isEphemeral).length, 1);
	});

	it('a Share press outside the share channel posts nothing and names the channel', async () => {
		await h.bot.ctx.settings.update(guildId, { shareChannelId: shareChannel });
		const before = publicCount();
		const press = h.sandbox.dispatchButton({ customId: `stats:share:${MEMBER}:me:30`, userId: MEMBER });
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300));
		const note = press.followUps.find((f) => f.status < 300)!;
		assert.match(String(note.data.content), new RegExp(`only to <#${shareChannel}>; nothing was posted here`));
		assert.equal(publicCount(), before);
	});

	it('default-days applies to /stats without days', async () => {
		await h.bot.ctx.settings.update(guildId, { defaultDays: 7 });
		assert.match(shareId(await stats([]).finalMessage())!, /:me:7/);
		assert.match(shareId(await stats([{ name: 'days', type: 4, value: 14 }]).finalMessage())!, /:me:14/);
	});

	it('default-days applies to /export without days', async () => {
		await h.bot.ctx.settings.update(guildId, { defaultDays: 7 });
		const exported = await h.sandbox.dispatchCommand({ name: 'export', userId: MEMBER, guildId }).finalMessage();
		const rows = exported.files[0]!.bytes.toString('utf8').split('\r\n').slice(1, -1);
		assert.equal(rows.length, 7, "the server's default, not the built-in 30 days");
	});

	it('a deleted server-stats role lifts its rule', async () => {
		await h.bot.ctx.settings.update(guildId, { serverStatsRoleId: STATS_ROLE });
		assert.equal((await stats([serverScope]).finalMessage()).embeds.length, 0);
		dispatchGatewayEvent(h.sandbox, 'GUILD_ROLE_DELETE', { guild_id: guildId, role_id: STATS_ROLE }, guildId);
		await waitUntil(async () => (await h.bot.ctx.settings.get(guildId)).serverStatsRoleId === null, 5000);
		assert.equal((await stats([serverScope]).finalMessage()).embeds.length, 1);
	});

	it('a deleted share channel lifts its rule', async () => {
		await h.bot.ctx.settings.update(guildId, { shareChannelId: shareChannel });
		dispatchGatewayEvent(h.sandbox, 'CHANNEL_DELETE', { id: shareChannel, guild_id: guildId, type: 0 }, guildId);
		await waitUntil(async () => (await h.bot.ctx.settings.get(guildId)).shareChannelId === null, 5000);
		const before = publicCount();
		const handle = stats([shareTrue]);
		await handle.waitFor((x) => x.followUps.some((f) => f.status < 300 && !(f.flags & 64)));
		assert.equal(publicCount(), before + 1);
	});

	it('default-metric applies to /stats without metric', async () => {
		await h.bot.ctx.settings.update(guildId, { defaultMetric: 'joins', defaultDays: 14 });
		assert.match(shareId(await stats([]).finalMessage())!, /:me:14:joins$/);
		assert.match(shareId(await stats([{ name: 'metric', type: 3, value: 'sends' }]).finalMessage())!, /:me:14:sends$/);
	});

	it("the language setting is the language of public posts; private replies stay the member's", async () => {
		await h.bot.ctx.settings.update(guildId, { language: 'ja' });
		const where = { locale: 'en-US', guildLocale: 'de' };
		const privateReply = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: MEMBER, guildId, ...where })
			.finalMessage();
		const title = (message: { embeds: unknown[] }) => (message.embeds[0] as { title: string }).title;
		assert.match(title(privateReply), /^Ad statistics/);

		const shared = h.sandbox.dispatchCommand({
			name: 'stats',
			userId: MEMBER,
			guildId,
			options: [shareTrue],
			...where,
		});
		await shared.waitFor((x) => x.followUps.some((f) => f.status < 300 && !(f.flags & 64)));
		const copy = shared.followUps.find((f) => f.status < 300 && !(f.flags & 64))!;
		assert.match((copy.data as { embeds: { title: string }[] }).embeds[0]!.title, /^広告の統計/u);

		const press = h.sandbox.dispatchButton({
			customId: shareId(privateReply)!,
			userId: MEMBER,
			guildId,
			messageId: privateReply.id,
			...where,
		});
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300 && !(f.flags & 64)));
		const pressed = press.followUps.find((f) => f.status < 300 && !(f.flags & 64))!;
		assert.match((pressed.data as { embeds: { title: string }[] }).embeds[0]!.title, /^広告の統計/u);

		await h.bot.ctx.settings.update(guildId, { language: 'auto' });
		const auto = h.sandbox.dispatchCommand({ name: 'stats', userId: MEMBER, guildId, options: [shareTrue], ...where });
		await auto.waitFor((x) => x.followUps.some((f) => f.status < 300 && !(f.flags & 64)));
		const autoCopy = auto.followUps.find((f) => f.status < 300 && !(f.flags & 64))!;
		assert.match(
			(autoCopy.data as { embeds: { title: string }[] }).embeds[0]!.title,
			/^Werbestatistik/u,
			"auto: the server's locale",
		);
	});

	it('/export scope:server follows the server-stats role: a refusal carries no file', async () => {
		await h.bot.ctx.settings.update(guildId, { serverStatsRoleId: STATS_ROLE });
		const exportServer = () =>
			h.sandbox.dispatchCommand({ name: 'export', userId: MEMBER, guildId, options: [serverScope] }).finalMessage();
		const refused = await exportServer();
		assert.ok(refused.isEphemeral);
		assert.match(refused.content, new RegExp(`<@&${STATS_ROLE}>`));
		assert.equal(refused.files.length, 0);
		roles.set(MEMBER, [STATS_ROLE]);
		const allowed = await exportServer();
		assert.doesNotMatch(allowed.content, new RegExp(`<@&${STATS_ROLE}>`));
		assert.match(allowed.content, /Daily figures|no daily figures/);
	});
});
