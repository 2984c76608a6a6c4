// Every core action as the dashboard calls it, on SQLite, Redis and PostgreSQL, with the services the bot opens
// (openBotServices), the Discord stand-in for the bot token's calls and the real stats service for the keys. The
// unit tests of each action run on SQLite only; what a shared store adds is checked here: the limits hold when two
// processes add at once (locks across processes), one process sees at once what another stored, and no stored
// entry, claim or log line holds a key in clear.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../../src/core/actor.js';
import { addBoard, listBoards, removeBoard, type BoardInput } from '../../src/boards/board-actions.js';
import { digestJobDeps } from '../../src/digests/digest-context.js';
import { setDigest, showDigest } from '../../src/digests/digest-actions.js';
import { sendDueDigest } from '../../src/digests/digest-job.js';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import { UserFacingError } from '../../src/errors.js';
import { addReport, listReports, removeReport, type ReportInput } from '../../src/reports/report-actions.js';
import { guildOfPublicToken, publicToken, setPublicPage } from '../../src/settings/public-page.js';
import { resetSettings, setSettings, showSettings } from '../../src/settings/settings-actions.js';
import { link, unlink } from '../../src/stats/link-actions.js';
import { removeServerKey, serverKeyStatus, setServerKey } from '../../src/stats/server-key-actions.js';
import { addAlert, listAlerts, removeAlert, type AlertInput } from '../../src/watch/alert-actions.js';
import { addStatChannel, listStatChannels, removeStatChannel } from '../../src/watch/stat-channel-actions.js';
import { uniqueSnowflake, usable } from '../discord/shared-stores.js';
import {
	startOutside,
	startStoreRun,
	storeTargets,
	type OpenedCore,
	type Outside,
	type StoreRun,
} from './store-runs.js';

const LOCALE = 'en-US';
/** A Discord timestamp, as auditTime writes `{{when}}`. */
const WHEN = '<t:\\d+:F>';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const dashboardAdmin = (userId: string): Actor => ({ userId, canManageServer: true, roleIds: [], origin: 'dashboard' });

/** The refusal a settled action ended in. */
function refusalOf(result: PromiseSettledResult<unknown>): UserFacingError {
	assert.equal(result.status, 'rejected');
	const { reason } = result as PromiseRejectedResult;
	assert.ok(reason instanceof UserFacingError, `expected a refusal, got ${String(reason)}`);
	return reason;
}

for (const target of await storeTargets()) {
	const title = 'the core actions with the bot services';
	if (target.name !== 'sqlite' && !usable(target, title)) continue;
	const shared = target.name !== 'sqlite';
	/** SQLite has one process; on a shared store every read is also made by a second one. */
	const inBoth = shared ? ' in both processes' : '';

	describe(`${title} on ${target.name}`, () => {
		const admin = dashboardAdmin(uniqueSnowflake('31'));
		const secondAdmin = dashboardAdmin(uniqueSnowflake('32'));
		const memberId = uniqueSnowflake('33');
		let outside: Outside;
		let run: StoreRun;
		/** The process the dashboard runs in. */
		let web: OpenedCore;
		/** Another process on the same store (the bot's, or a second dashboard's); the same one on SQLite. */
		let other: OpenedCore;
		let guildId: string;
		let auditChannel: string;
		let alertChannel: string;
		let reportChannels: string[];
		let voiceChannel: string;
		let role: string;
		let serverKey: string;
		let memberKey: string;
		let auditSeen = 0;

		const channelType = (id: string) => outside.sandbox.channel(id)?.type ?? null;
		/** The audit lines posted since the last call. */
		const newAuditLines = () => {
			const all = outside.sandbox.channelMessages(auditChannel).map((message) => message.content);
			const fresh = all.slice(auditSeen);
			auditSeen = all.length;
			return fresh;
		};
		const dashboardLine = (actor: Actor, body: string) =>
			new RegExp(`^<@${actor.userId}> \\(dashboard\\) ${body}$`, 'u');
		const reportInput = async (channelId: string): Promise<ReportInput> => ({
			channel: { id: channelId, type: channelType(channelId) },
			every: 'weekly',
			hour: 18,
			timezone: 'Europe/Berlin',
			weekday: 'fri',
			// What the dashboard does: the bot's permissions there, read with the bot token.
			botPermissionsInChannel: await web.ctx.guildApi.channelPermissions(guildId, channelId),
			guildLocale: LOCALE,
		});
		const alertInput = (kind: string, threshold: number): AlertInput => ({
			kind,
			channel: { id: alertChannel, type: channelType(alertChannel) },
			threshold,
			guildLocale: LOCALE,
		});

		before(async () => {
			outside = await startOutside();
			run = await startStoreRun(target, outside);
			web = await run.open();
			other = shared ? await run.open() : web;
			const guild = outside.sandbox.guilds[0]!;
			guildId = guild.id;
			[, auditChannel = '', alertChannel = '', ...reportChannels] = guild.channelIds;
			reportChannels = reportChannels.slice(0, 6);
			voiceChannel = guild.voiceChannelIds[0]!;
			role = guild.roles()[2]!.id;
			serverKey = outside.createAccount(`Pixel_${target.name}`);
			memberKey = outside.createAccount(`Member_${target.name}`);
		});
		after(async () => {
			await run?.cleanup();
			await outside?.close();
		});

		it(`settings: default-days, server-stats-role and audit-channel are what show answers${inBoth}`, async () => {
			const { after: stored, changed } = await setSettings(
				web.ctx,
				admin,
				guildId,
				{
					'default-days': 7,
					'server-stats-role': role,
					'audit-channel': { id: auditChannel, type: channelType(auditChannel) },
				},
				{ guildLocale: LOCALE },
			);
			assert.deepEqual(changed, ['serverStatsRoleId', 'defaultDays', 'auditChannelId']);
			const expected = { ...stored, defaultDays: 7, serverStatsRoleId: role, auditChannelId: auditChannel };
			assert.deepEqual(stored, expected);
			assert.deepEqual(await showSettings(web.ctx, admin, guildId), expected);
			assert.deepEqual(await showSettings(other.ctx, secondAdmin, guildId), expected);
			assert.equal(stored.shareRoleId, null);
			assert.equal(stored.language, 'auto');

			const [line, ...more] = newAuditLines();
			assert.deepEqual(more, []);
			assert.match(line ?? '', dashboardLine(admin, `changed the settings ${WHEN}: .+`));
			for (const part of [
				'server-stats-role',
				`<@&${role}>`,
				'default-days',
				'7',
				'audit-channel',
				`<#${auditChannel}>`,
			]) {
				assert.ok(line!.includes(part), `${part} in ${line}`);
			}
		});

		it(`server key: set after the stats service accepts it; status answers it${inBoth}`, async () => {
			const info = await setServerKey(web.ctx, admin, guildId, serverKey, { guildLocale: LOCALE });
			assert.equal(info.accountName, `Pixel_${target.name}`);
			assert.equal(info.verified, true);
			assert.equal(info.linkedBy, admin.userId);
			assert.equal(info.keyHint, serverKey.slice(-4));
			const status = await serverKeyStatus(web.ctx, admin, guildId);
			assert.deepEqual(status, { ...info, readable: true });
			assert.deepEqual(await serverKeyStatus(other.ctx, secondAdmin, guildId), status);
			const [line, ...more] = newAuditLines();
			assert.deepEqual(more, []);
			assert.match(
				line ?? '',
				dashboardLine(
					admin,
					`linked the server's API key \\(ending \`…${escapeRegExp(serverKey.slice(-4))}\`\\) ${WHEN}\\.`,
				),
			);
		});

		it(`a member links their own key (checked by the stats service), read back${inBoth}`, async () => {
			const info = await link(web.ctx, memberId, memberKey);
			assert.equal(info.accountName, `Member_${target.name}`);
			assert.equal((await other.ctx.links.getUserLink(memberId))?.keyHint, memberKey.slice(-4));
		});

		it(`digest: the member turns it on, it is shown${inBoth}, and the job sends the DM with the real stats`, async () => {
			const memberActor: Actor = { userId: memberId, canManageServer: false, roleIds: [], origin: 'dashboard' };
			const input = { enabled: true, weekday: 'wed', hour: 12, timezone: 'Europe/Berlin', locale: 'de' };
			const { record, nextAt } = await setDigest(web.ctx, memberActor, input);
			assert.equal(record?.timezone, 'Europe/Berlin');
			assert.deepEqual(await showDigest(other.ctx, memberActor, { locale: 'de' }), { record, nextAt });
			// The job of the other process, at the end of that local hour: the digest is due there.
			const deps = digestJobDeps(other.ctx, () => nextAt! + 59 * 60_000);
			assert.equal(await sendDueDigest(deps, record!), 'sent');
			// The week is stored as sent: the first process, reading the digest now, has nothing to send.
			const stored = await digestStoreOf(web.ctx).get(memberId);
			const later = digestJobDeps(web.ctx, () => nextAt! + 60 * 60_000);
			assert.equal(await sendDueDigest(later, stored!), 'notDue');
			const [dm, ...more] = outside.sandbox.directMessages(memberId);
			assert.deepEqual(more, []);
			assert.equal((dm!.embeds[0] as { title?: string }).title, 'Deine Woche in Zahlen');
			assert.match((dm!.embeds[0] as { description?: string }).description ?? '', /^Konto: \*\*Member\\_/u);
		});

		it('report: added with its schedule and listed as asked; the preview is built from the real stats', async () => {
			const channelId = reportChannels[0]!;
			const added = await addReport(web.ctx, admin, guildId, await reportInput(channelId));
			assert.equal(added.previous, null);
			const listing = await listReports(other.ctx, secondAdmin, guildId);
			assert.equal(listing.counted, 1);
			assert.equal(listing.max, 5);
			assert.equal(listing.reports.length, 1);
			const [listed] = listing.reports;
			assert.deepEqual(listed?.record, added.record);
			assert.deepEqual(
				{
					guildId: listed?.record.guildId,
					channelId: listed?.record.channelId,
					every: listed?.record.every,
					hour: listed?.record.hour,
					timezone: listed?.record.timezone,
					weekday: listed?.record.weekday,
					createdBy: listed?.record.createdBy,
					paused: listed?.pause,
				},
				{
					guildId,
					channelId,
					every: 'weekly',
					hour: 18,
					timezone: 'Europe/Berlin',
					weekday: 'fri',
					createdBy: admin.userId,
					paused: null,
				},
			);
			assert.ok((listed?.nextDue ?? 0) > Date.now());
			assert.equal(new Date(listed!.nextDue!).getUTCDay(), 5, 'a Friday');
			const [line, ...more] = newAuditLines();
			assert.deepEqual(more, []);
			assert.match(line ?? '', dashboardLine(admin, `added a report for <#${channelId}> \\(.+\\) ${WHEN}\\.`));
		});

		it('stat channel: added, renamed at once in the stand-in to the figure the stats service reports, listed', async () => {
			const added = await addStatChannel(web.ctx, admin, guildId, {
				channel: { id: voiceChannel, type: channelType(voiceChannel) },
				figure: 'sends-all',
				guildLocale: LOCALE,
			});
			assert.equal(added.state, 'named');
			const sends = (await web.ctx.stats.fetchSnapshot(serverKey)).snapshot.sends.allTime;
			assert.ok(sends !== null && sends > 0);
			const name = `Sends all time: ${sends.toLocaleString('en-US')}`;
			assert.equal(added.state === 'named' && added.name, name);
			assert.equal(outside.sandbox.channel(voiceChannel)?.name, name);
			const listing = await listStatChannels(other.ctx, secondAdmin, guildId);
			assert.deepEqual(
				listing.records.map((record) => [
					record.channelId,
					record.figure,
					record.createdBy,
					record.paused,
					record.name,
				]),
				[[voiceChannel, 'sends-all', admin.userId, null, name]],
			);
			const [line, ...more] = newAuditLines();
			assert.deepEqual(more, []);
			assert.match(line ?? '', dashboardLine(admin, `made <#${voiceChannel}> a stat channel \\(.+\\) ${WHEN}\\.`));
		});

		it(`alert: added (a milestone not yet reached, read from the stats service) and listed${inBoth} at once`, async () => {
			const record = await addAlert(web.ctx, admin, guildId, alertInput('sends-milestone', 1_000_000_000));
			assert.deepEqual(
				[record.guildId, record.channelId, record.kind, record.threshold, record.createdBy, record.paused],
				[guildId, alertChannel, 'sends-milestone', 1_000_000_000, admin.userId, null],
			);
			assert.deepEqual((await listAlerts(web.ctx, admin, guildId)).records, [record]);
			// Another process (the bot evaluating alerts, a second dashboard) reads the store itself: no delay.
			assert.deepEqual((await listAlerts(other.ctx, secondAdmin, guildId)).records, [record]);
			const [line, ...more] = newAuditLines();
			assert.deepEqual(more, []);
			assert.match(
				line ?? '',
				dashboardLine(admin, `added alert \`${escapeRegExp(record.id)}\` \\(.+\\) in <#${alertChannel}> ${WHEN}\\.`),
			);
		});

		it('public page: on gives a token that opens the server, off makes it open nothing', async () => {
			const { token } = await setPublicPage(web.ctx, admin, guildId, true, { guildLocale: LOCALE });
			assert.ok(token);
			assert.equal(await publicToken(other.ctx, guildId), token);
			assert.equal(await guildOfPublicToken(other.ctx, token), guildId);
			const off = await setPublicPage(web.ctx, admin, guildId, false, { guildLocale: LOCALE });
			assert.equal(off.token, null);
			assert.equal(await publicToken(other.ctx, guildId), null);
			assert.equal(await guildOfPublicToken(other.ctx, token), null);
			const lines = newAuditLines();
			assert.equal(lines.length, 2);
			assert.match(lines[0]!, dashboardLine(admin, `turned on the server's public statistics page ${WHEN}\\.`));
			assert.match(lines[1]!, dashboardLine(admin, `turned off the server's public statistics page ${WHEN}\\.`));
		});

		it('no stored entry, claim or log line holds either key in clear', async () => {
			const raw = await run.dumpRaw();
			// The search reads what the run stored: the records are there, so an absent key is really absent.
			for (const stored of [guildId, reportChannels[0]!, voiceChannel, alertChannel, `digest:${memberId}`]) {
				assert.ok(raw.includes(stored), `${stored} is in the raw dump`);
			}
			for (const key of [serverKey, memberKey]) {
				assert.ok(!raw.includes(key), `a key in clear in the ${target.name} store`);
				assert.ok(!raw.includes(key.slice(0, -4)), `most of a key in the ${target.name} store`);
				for (const logs of [web.logs, other.logs]) assert.ok(!logs.join('\n').includes(key), 'a key in a log line');
			}
		});

		it('remove: the report, the stat channel and the alert go, and every list says so', async () => {
			const report = await removeReport(web.ctx, admin, guildId, `<#${reportChannels[0]}>`, LOCALE);
			assert.deepEqual(report, { channelId: reportChannels[0], removed: true });
			const statChannel = await removeStatChannel(web.ctx, admin, guildId, `<#${voiceChannel}>`);
			assert.deepEqual(statChannel, { channelId: voiceChannel, removed: true });
			const [alert] = (await listAlerts(web.ctx, admin, guildId)).records;
			assert.deepEqual(await removeAlert(web.ctx, admin, guildId, alert!.id.toUpperCase()), {
				id: alert!.id,
				removed: true,
			});
			for (const core of [web, other]) {
				assert.deepEqual((await listReports(core.ctx, admin, guildId)).reports, []);
				assert.deepEqual((await listStatChannels(core.ctx, admin, guildId)).records, []);
				assert.deepEqual((await listAlerts(core.ctx, admin, guildId)).records, []);
			}
			assert.deepEqual(await removeAlert(web.ctx, admin, guildId, alert!.id), { id: alert!.id, removed: false });
			const lines = newAuditLines();
			assert.equal(lines.length, 3, lines.join('\n'));
			assert.match(lines[0]!, dashboardLine(admin, `removed the report for <#${reportChannels[0]}> ${WHEN}\\.`));
			assert.match(lines[1]!, dashboardLine(admin, `removed the stat channel <#${voiceChannel}> ${WHEN}\\.`));
			assert.match(lines[2]!, dashboardLine(admin, `removed alert \`${escapeRegExp(alert!.id)}\` ${WHEN}\\.`));
		});

		const together = shared ? ' by two processes' : '';
		/** Which of the racing adds got in and which were refused, in a line a failure can print. */
		const outcomes = (results: PromiseSettledResult<unknown>[]) =>
			results.map((result) => (result.status === 'fulfilled' ? 'added' : String(result.reason))).join('; ');

		it(`report limit: the 5th and 6th report added at once${together}: exactly one gets in`, async () => {
			for (const channelId of reportChannels.slice(0, 4)) {
				await addReport(web.ctx, admin, guildId, await reportInput(channelId));
			}
			const [fifth, sixth] = [await reportInput(reportChannels[4]!), await reportInput(reportChannels[5]!)];
			const results = await Promise.allSettled([
				addReport(web.ctx, admin, guildId, fifth),
				addReport(other.ctx, secondAdmin, guildId, sixth),
			]);
			assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, outcomes(results));
			const refusal = refusalOf(results.find((result) => result.status === 'rejected')!);
			assert.equal(refusal.key, 'report.tooMany');
			assert.deepEqual(refusal.vars, { max: 5 });
			const listing = await listReports(other.ctx, admin, guildId);
			assert.equal(listing.reports.length, 5);
			assert.equal(listing.counted, 5);
			const lines = newAuditLines();
			assert.equal(lines.length, 5, lines.join('\n'));
			assert.ok(
				lines.every((line) => /^<@\d+> \(dashboard\) added a report for /u.test(line)),
				lines.join('\n'),
			);

			for (const { record } of listing.reports) {
				assert.equal((await removeReport(other.ctx, admin, guildId, record.channelId, LOCALE)).removed, true);
			}
			assert.deepEqual((await listReports(web.ctx, admin, guildId)).reports, []);
			assert.equal(newAuditLines().length, 5);
		});

		it(`alert limit: the 10th and 11th alert added at once${together}: exactly one gets in`, async () => {
			for (let threshold = 91; threshold <= 99; threshold += 1) {
				await addAlert(web.ctx, admin, guildId, alertInput('failed-share', threshold));
			}
			const results = await Promise.allSettled([
				addAlert(web.ctx, admin, guildId, alertInput('no-sends', 72)),
				addAlert(other.ctx, secondAdmin, guildId, alertInput('sends-drop', 100)),
			]);
			assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, outcomes(results));
			const refusal = refusalOf(results.find((result) => result.status === 'rejected')!);
			assert.equal(refusal.key, 'watch.alert.tooMany');
			assert.deepEqual(refusal.vars, { max: 10 });
			const listing = await listAlerts(web.ctx, admin, guildId);
			assert.equal(listing.records.length, 10);
			assert.equal(new Set(listing.records.map((record) => record.id)).size, 10);
			const lines = newAuditLines();
			assert.equal(lines.length, 10, lines.join('\n'));
			assert.ok(
				lines.every((line) => /^<@\d+> \(dashboard\) added alert /u.test(line)),
				lines.join('\n'),
			);

			for (const { id } of listing.records) {
				assert.equal((await removeAlert(other.ctx, admin, guildId, id)).removed, true);
			}
			assert.deepEqual((await listAlerts(web.ctx, admin, guildId)).records, []);
			assert.equal(newAuditLines().length, 10);
		});

		if (shared) {
			it('two processes: an alert added through one is listed by the other at once, and removed the other way', async () => {
				const added = await addAlert(web.ctx, admin, guildId, alertInput('failed-share', 50));
				assert.deepEqual((await listAlerts(other.ctx, secondAdmin, guildId)).records, [added]);
				assert.deepEqual(await removeAlert(other.ctx, secondAdmin, guildId, added.id), { id: added.id, removed: true });
				assert.deepEqual((await listAlerts(web.ctx, admin, guildId)).records, []);
				const lines = newAuditLines();
				assert.equal(lines.length, 2);
				assert.match(lines[0]!, dashboardLine(admin, `added alert \`${escapeRegExp(added.id)}\` .+`));
				assert.match(lines[1]!, dashboardLine(secondAdmin, `removed alert \`${escapeRegExp(added.id)}\` ${WHEN}\\.`));
			});
		}

		const boardInput = (channelId: string, days: number | null = null): BoardInput => ({
			channel: { id: channelId, type: channelType(channelId) },
			days,
			metric: null,
			guildLocale: LOCALE,
		});

		it(`board: added and posted in the stand-in, listed${inBoth}, no key in clear beside it, removed`, async () => {
			const channelId = reportChannels[0]!;
			const added = await addBoard(web.ctx, admin, guildId, boardInput(channelId, 7));
			assert.equal(added.state, 'posted');
			const [posted, ...extra] = outside.sandbox.channelMessages(channelId);
			assert.deepEqual(extra, []);
			assert.equal(added.record.messageId, posted!.id);
			assert.match(posted!.content, /Live board: the bot updates this message every \d+ minutes/u);
			assert.deepEqual(
				[added.record.guildId, added.record.channelId, added.record.days, added.record.metric, added.record.createdBy],
				[guildId, channelId, 7, 'sends', admin.userId],
			);
			for (const core of [web, other]) {
				const listing = await listBoards(core.ctx, secondAdmin, guildId);
				assert.deepEqual(listing.records, [added.record]);
				assert.equal(listing.max, 3);
			}
			const raw = await run.dumpRaw();
			assert.ok(raw.includes(`board:${guildId}:${channelId}`), 'the board is in the raw dump');
			assert.ok(!raw.includes(serverKey), `a key in clear in the ${target.name} store`);
			assert.ok(!raw.includes(serverKey.slice(0, -4)), `most of a key in the ${target.name} store`);
			for (const logs of [web.logs, other.logs]) assert.ok(!logs.join('\n').includes(serverKey), 'a key in a log line');

			// Removed through the other process; the first sees it gone at once, and a second remove finds nothing.
			assert.deepEqual(await removeBoard(other.ctx, secondAdmin, guildId, `<#${channelId}>`), {
				channelId,
				removed: true,
			});
			assert.deepEqual((await listBoards(web.ctx, admin, guildId)).records, []);
			assert.deepEqual(await removeBoard(web.ctx, admin, guildId, channelId), { channelId, removed: false });
			const lines = newAuditLines();
			assert.equal(lines.length, 2, lines.join('\n'));
			assert.match(lines[0]!, dashboardLine(admin, `added a board \\(.+\\) in <#${channelId}> ${WHEN}\\.`));
			assert.match(lines[1]!, dashboardLine(secondAdmin, `removed the board in <#${channelId}> ${WHEN}\\.`));
		});

		it(`board limit: the 3rd and 4th board added at once${together}: exactly one gets in`, async () => {
			const [first, second, third, fourth] = reportChannels.slice(1, 5) as [string, string, string, string];
			await addBoard(web.ctx, admin, guildId, boardInput(first));
			await addBoard(other.ctx, secondAdmin, guildId, boardInput(second));
			const results = await Promise.allSettled([
				addBoard(web.ctx, admin, guildId, boardInput(third)),
				addBoard(other.ctx, secondAdmin, guildId, boardInput(fourth)),
			]);
			assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, outcomes(results));
			const refusal = refusalOf(results.find((result) => result.status === 'rejected')!);
			assert.equal(refusal.key, 'watch.board.tooMany');
			assert.deepEqual(refusal.vars, { max: 3 });
			const winner = results[0]!.status === 'fulfilled' ? third : fourth;
			for (const core of [web, other]) {
				const listing = await listBoards(core.ctx, admin, guildId);
				assert.deepEqual(
					listing.records.map((record) => record.channelId),
					[first, second, winner].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
				);
			}
			const lines = newAuditLines();
			assert.equal(lines.length, 3, lines.join('\n'));
			assert.ok(
				lines.every((line) => /^<@\d+> \(dashboard\) added a board /u.test(line)),
				lines.join('\n'),
			);

			for (const channelId of [first, second, winner]) {
				assert.equal((await removeBoard(other.ctx, admin, guildId, channelId)).removed, true);
			}
			assert.deepEqual((await listBoards(web.ctx, admin, guildId)).records, []);
			assert.equal(newAuditLines().length, 3);
		});

		it(`the server key${shared ? ' (by the other process)' : ''} and the member link removed, settings reset`, async () => {
			assert.deepEqual(await removeServerKey(other.ctx, secondAdmin, guildId, { guildLocale: LOCALE }), {
				removed: true,
			});
			assert.equal(await serverKeyStatus(web.ctx, admin, guildId), null);
			assert.deepEqual(await removeServerKey(web.ctx, admin, guildId), { removed: false });
			assert.deepEqual(await unlink(web.ctx, memberId), { removed: true });
			assert.equal(await other.ctx.links.getUserLink(memberId), null);
			const { before: was } = await resetSettings(web.ctx, admin, guildId, { guildLocale: LOCALE });
			assert.equal(was.auditChannelId, auditChannel);
			assert.equal((await showSettings(other.ctx, admin, guildId)).auditChannelId, null);
			const lines = newAuditLines();
			assert.equal(lines.length, 2, lines.join('\n'));
			assert.match(lines[0]!, dashboardLine(secondAdmin, `removed the server's API key ${WHEN}\\.`));
			assert.match(lines[1]!, dashboardLine(admin, `put all settings back to their defaults ${WHEN}\\.`));
			outside.sandbox.assertNoViolations();
		});
	});
}
