// A member with every kind of record, written through the features' own actions on a store run (as
// test/core/record-kinds.test.ts writes them): their link, goals, digest (with the language last seen), a dashboard
// session, a cooldown, the digest's send claim, their notes, their account's history, and on a server they manage its key, a
// report, a stat channel, an alert, a board, a server goal, a server note and a webhook. Another admin keeps a link
// and a server goal of theirs.
import assert from 'node:assert/strict';
import { addBoard } from '../../src/boards/board-actions.js';
import type { Actor } from '../../src/core/actor.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { setDigest } from '../../src/digests/digest-actions.js';
import { digestJobDeps } from '../../src/digests/digest-context.js';
import { sendDueDigest } from '../../src/digests/digest-job.js';
import { createDigestLocaleTracker } from '../../src/digests/digest-locale.js';
import { setGoal } from '../../src/goals/goal-actions.js';
import { addNote } from '../../src/notes/note-actions.js';
import { addReport } from '../../src/reports/report-actions.js';
import { setSettings } from '../../src/settings/settings-actions.js';
import { link } from '../../src/stats/link-actions.js';
import { setServerKey } from '../../src/stats/server-key-actions.js';
import { claimCooldowns } from '../../src/store/cooldowns.js';
import { addAlert } from '../../src/watch/alert-actions.js';
import { addStatChannel } from '../../src/watch/stat-channel-actions.js';
import { addWebhook } from '../../src/webhooks/webhook-actions.js';
import { createWebStore } from '../../src/web/auth/sessions.js';
import type { Outside } from '../actions/store-runs.js';
import { uniqueSnowflake } from '../discord/shared-stores.js';

const LOCALE = 'en-US';

export interface MemberWorld {
	memberId: string;
	otherId: string;
	guildId: string;
	memberKey: string;
	serverKey: string;
	memberAccount: string;
	otherAccount: string;
}

export async function buildMemberWorld(ctx: CoreContext, outside: Outside, tag: string): Promise<MemberWorld> {
	const memberId = uniqueSnowflake('42');
	const otherId = uniqueSnowflake('43');
	const member: Actor = { userId: memberId, canManageServer: true, roleIds: [], origin: 'dashboard' };
	const other: Actor = { userId: otherId, canManageServer: true, roleIds: [], origin: 'dashboard' };
	const guild = outside.sandbox.guilds[0]!;
	const guildId = guild.id;
	const [, alertChannel = '', reportChannel = '', boardChannel = ''] = guild.channelIds;
	const voiceChannel = guild.voiceChannelIds[0]!;
	const channel = (id: string) => ({ id, type: outside.sandbox.channel(id)?.type ?? null });
	const memberAccount = `Member_${tag}`;
	const otherAccount = `Other_${tag}`;
	const serverKey = outside.createAccount(`Server_${tag}`);
	const memberKey = outside.createAccount(memberAccount);
	const otherKey = outside.createAccount(otherAccount);

	await setServerKey(ctx, member, guildId, serverKey, { guildLocale: LOCALE });
	await setSettings(ctx, member, guildId, { 'default-days': 7 }, { guildLocale: LOCALE });
	await addReport(ctx, member, guildId, {
		channel: channel(reportChannel),
		every: 'weekly',
		hour: 18,
		timezone: 'Europe/Berlin',
		weekday: 'fri',
		botPermissionsInChannel: await ctx.guildApi.channelPermissions(guildId, reportChannel),
		guildLocale: LOCALE,
	});
	await addStatChannel(ctx, member, guildId, {
		channel: channel(voiceChannel),
		figure: 'sends-all',
		guildLocale: LOCALE,
	});
	await addAlert(ctx, member, guildId, {
		kind: 'sends-milestone',
		channel: channel(alertChannel),
		threshold: 1_000_000_000,
		guildLocale: LOCALE,
	});
	await addBoard(ctx, member, guildId, {
		channel: channel(boardChannel),
		days: null,
		metric: null,
		guildLocale: LOCALE,
	});
	const goal = { metric: 'sends', period: 'month', target: 1000, guildLocale: LOCALE };
	await setGoal(ctx, member, { ...goal, scope: 'server', guildId });
	await setGoal(ctx, other, { ...goal, period: 'week', scope: 'server', guildId });
	const note = { date: '2026-11-02', text: 'campaign A started', guildLocale: LOCALE };
	await addNote(ctx, member, { ...note, scope: 'server', guildId });

	// A public address stands in for the receiver: adding checks the address and connects to nothing.
	const resolvesPublic = { ...ctx, webhookResolve: async () => [{ address: '93.184.216.34', family: 4 as const }] };
	await addWebhook(resolvesPublic, member, {
		guildId,
		guildLocale: LOCALE,
		format: 'standard',
		events: 'all',
		url: `https://hooks.example.com/${tag}/Zq9x`,
	});

	await link(ctx, memberId, memberKey);
	await link(ctx, otherId, otherKey);
	await setGoal(ctx, member, { ...goal, scope: 'me', guildId: null });
	await addNote(ctx, member, { ...note, scope: 'me', guildId: null });
	await addNote(ctx, member, { ...note, date: '2026-11-03', text: 'second mail', scope: 'me', guildId: null });
	const digest = await setDigest(ctx, member, { enabled: true, weekday: 'wed', hour: 12, locale: LOCALE });
	await createDigestLocaleTracker(ctx).seen(memberId, 'de');
	for (const key of [memberKey, otherKey, serverKey]) {
		const { snapshot } = await ctx.stats.fetchSnapshot(key);
		await ctx.history.record(snapshot);
	}
	await claimCooldowns(ctx.coordinator, 60).take(memberId, 'stats');
	const web = createWebStore(ctx.stores.web);
	await web.createSession({ userId: memberId, username: 'member', globalName: null, locale: 'de', guilds: [] });
	const sent = await sendDueDigest(
		digestJobDeps(ctx, () => digest.nextAt! + 59 * 60_000),
		digest.record!,
	);
	assert.equal(sent, 'sent');
	return { memberId, otherId, guildId, memberKey, serverKey, memberAccount, otherAccount };
}
