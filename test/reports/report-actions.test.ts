// The report actions as both front ends call them, without Discord or HTTP: a real SQLite store and
// coordinator, the stand-in stats endpoint of report-context.ts, and a GuildApi object that keeps its posts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Actor } from '../../src/core/actor.js';
import type { ChannelDescription } from '../../src/guild-api.js';
import { UserFacingError } from '../../src/errors.js';
import { renderMessage, translator } from '../../src/i18n/index.js';
import type { ChannelMessage } from '../../src/message.js';
import {
	addReport,
	listReportChannels,
	listReports,
	removeReport,
	type ReportActionContext,
	type ReportInput,
} from '../../src/reports/report-actions.js';
import { createReportStore } from '../../src/reports/report-store.js';
import { reportDelayMs } from '../../src/reports/schedule.js';
import { ADMIN, GUILD, openReportContext, type ReportTestContext } from './report-context.js';
import { makeReport } from './records.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const AUDIT_CHANNEL = '200000000000000099';
const TEXT = 0;
const VOICE = 2;
const en = translator('en-US');

const admin: Actor = { userId: ADMIN, canManageServer: true, roleIds: [], origin: 'discord' };
const dashboardAdmin: Actor = { ...admin, origin: 'dashboard' };
const member: Actor = { userId: '300000000000000002', canManageServer: false, roleIds: [], origin: 'dashboard' };

let env: ReportTestContext;
let ctx: ReportActionContext;
/** What the fake GuildApi posted: the audit lines. */
let posts: { channelId: string; content: string }[];
/** Channels Discord would answer as deleted; the others exist, named `name-of-<id>`. */
let deleted: Set<string>;

before(async () => {
	env = await openReportContext();
	ctx = {
		...env.ctx,
		now: () => NOW,
		guildApi: {
			guildName: async () => 'Report Guild',
			describeChannel: async (_guildId: string, channelId: string): Promise<ChannelDescription> =>
				deleted.has(channelId) ? { state: 'deleted', name: null } : { state: 'exists', name: `name-of-${channelId}` },
			postMessage: async (channelId: string, message: ChannelMessage) => {
				posts.push({ channelId, content: message.content ?? '' });
			},
			channelPermissions: env.ctx.guildApi.channelPermissions,
		} as unknown as ReportActionContext['guildApi'],
	};
});
after(async () => env.close());
beforeEach(async () => {
	await env.ctx.stores.reports.clear();
	await env.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL });
	env.serverKeys.clear();
	env.serverKeys.set(GUILD, 'good-key-0000000000000000');
	posts = [];
	deleted = new Set();
});

const input = (channelId: string, extra: Partial<ReportInput> = {}): ReportInput => ({
	channel: { id: channelId, type: TEXT },
	every: 'daily',
	hour: 9,
	timezone: 'UTC',
	weekday: null,
	guildLocale: 'en-US',
	...extra,
});

const stored = () => createReportStore(env.ctx.stores).listServer(GUILD);

async function refusal(promise: Promise<unknown>): Promise<UserFacingError> {
	const error = await promise.then(
		() => assert.fail('expected a refusal'),
		(thrown: unknown) => thrown,
	);
	assert.ok(error instanceof UserFacingError, String(error));
	return error;
}

describe('addReport', () => {
	test('stores the report, returns it with the preview post, and writes the audit line', async () => {
		const added = await addReport(
			ctx,
			admin,
			GUILD,
			input('21', { every: 'weekly', weekday: 'fri', hour: 7, timezone: 'Europe/Berlin' }),
		);
		assert.equal(added.previous, null);
		assert.deepEqual(added.record, {
			v: 1,
			guildId: GUILD,
			channelId: '21',
			every: 'weekly',
			hour: 7,
			timezone: 'Europe/Berlin',
			weekday: 'fri',
			createdBy: ADMIN,
			since: NOW,
			guildLocale: 'en-US',
			paused: null,
		});
		assert.deepEqual(await stored(), [added.record]);
		assert.equal(added.post.content, en('report.postWeekly'));
		assert.equal(added.post.files.length, 1, 'the chart is attached');
		assert.deepEqual(posts, [
			{
				channelId: AUDIT_CHANNEL,
				content: `<@${ADMIN}> added a report for <#21> (weekly on Friday at 07:00 (Europe/Berlin), last 30 days) <t:${NOW / 1000}:F>.`,
			},
		]);
	});

	test('defaults to daily at 09:00 UTC; adding again returns the report it replaced', async () => {
		const first = await addReport(ctx, admin, GUILD, { channel: { id: '22', type: null }, guildLocale: null });
		assert.deepEqual(
			[first.record.every, first.record.hour, first.record.timezone, first.record.weekday],
			['daily', 9, 'UTC', null],
		);
		const again = await addReport(ctx, admin, GUILD, input('22', { hour: 18 }));
		assert.deepEqual(again.previous, first.record);
		assert.equal((await stored())[0]?.hour, 18);
	});

	test('a sixth report is refused and nothing is stored', async () => {
		for (let channel = 1; channel <= 5; channel += 1) await addReport(ctx, admin, GUILD, input(String(channel)));
		posts = [];
		const error = await refusal(addReport(ctx, admin, GUILD, input('6')));
		assert.equal(error.key, 'report.tooMany');
		assert.deepEqual(error.vars, { max: 5 });
		assert.deepEqual(
			(await stored()).map((record) => record.channelId),
			['1', '2', '3', '4', '5'],
		);
		assert.deepEqual(posts, [], 'no audit line');
	});

	test('a bad time zone is refused and nothing is stored', async () => {
		const error = await refusal(addReport(ctx, admin, GUILD, input('1', { timezone: 'Mars/Base' })));
		assert.equal(error.key, 'report.invalidTimezone');
		assert.deepEqual(error.vars, { timezone: 'Mars/Base' });
		assert.deepEqual(await stored(), []);
		assert.deepEqual(posts, []);
	});

	test('a channel that takes no posts is refused, as is a schedule Discord would not send', async () => {
		const cases: [Partial<ReportInput>, string][] = [
			[{ channel: { id: '1', type: VOICE } }, 'report.notTextChannel'],
			[{ channel: null }, 'report.notTextChannel'],
			[{ every: 'hourly' }, 'report.invalidSchedule'],
			[{ hour: 24 }, 'report.invalidHour'],
			[{ hour: Number.NaN }, 'report.invalidHour'],
			[{ weekday: 'mon' }, 'report.weekdayNeedsWeekly'],
			[{ every: 'weekly', weekday: 'someday' }, 'report.invalidSchedule'],
		];
		for (const [extra, key] of cases) {
			assert.equal((await refusal(addReport(ctx, admin, GUILD, input('1', extra)))).key, key, JSON.stringify(extra));
		}
		assert.deepEqual(await stored(), []);
	});

	test('a member without Manage Server is refused with the command words and nothing is stored', async () => {
		const error = await refusal(addReport(ctx, member, GUILD, input('1')));
		assert.equal(error.key, 'errors.manageServerRequired');
		assert.deepEqual(error.vars, { command: 'report' });
		assert.deepEqual(await stored(), []);
		assert.deepEqual(posts, []);
	});

	test('needs a server key; missing posting permissions are named as a list', async () => {
		env.serverKeys.clear();
		assert.equal((await refusal(addReport(ctx, admin, GUILD, input('1')))).key, 'report.needsServerKey');
		env.serverKeys.set(GUILD, 'good-key-0000000000000000');
		const viewAndSend = 0x400n | 0x800n;
		const error = await refusal(addReport(ctx, admin, GUILD, input('1', { botPermissionsInChannel: viewAndSend })));
		assert.equal(error.key, 'report.cannotPost');
		assert.equal(
			renderMessage(en, { key: error.key, vars: error.vars }),
			'The bot cannot post in <#1>: it lacks Embed Links and Attach Files there.',
		);
		assert.deepEqual(await stored(), []);
		const administrator = 0x8n;
		await addReport(ctx, admin, GUILD, input('1', { botPermissionsInChannel: administrator }));
		assert.equal((await stored()).length, 1);
	});

	test('from the dashboard, the audit line says so', async () => {
		await addReport(ctx, dashboardAdmin, GUILD, input('23'));
		assert.equal(posts.length, 1);
		assert.ok(posts[0]?.content.startsWith(`<@${ADMIN}> (dashboard) added a report for <#23> (daily at 09:00`));
	});
});

describe('removeReport and listReports', () => {
	beforeEach(async () => {
		const reports = createReportStore(env.ctx.stores);
		await reports.put(makeReport({ channelId: '31', hour: 9, timezone: 'Europe/Berlin' }));
		await reports.put(makeReport({ channelId: '32', paused: { reason: 'keyRejected', at: 0 } }));
		await reports.put(makeReport({ channelId: '33', paused: { reason: 'channelGone', at: 0 } }));
	});

	test('removes by mention, by id and by channel name; the audit line names the actor', async () => {
		assert.deepEqual(await removeReport(ctx, admin, GUILD, '<#31>'), { channelId: '31', removed: true });
		assert.deepEqual(await removeReport(ctx, dashboardAdmin, GUILD, '#Name-of-32'), { channelId: '32', removed: true });
		assert.deepEqual(await removeReport(ctx, admin, GUILD, '33'), { channelId: '33', removed: true });
		assert.deepEqual(await removeReport(ctx, admin, GUILD, '33'), { channelId: '33', removed: false });
		assert.deepEqual(await stored(), []);
		assert.deepEqual(
			posts.map((post) => post.content.replace(/ <t:\d+:F>\.$/, '')),
			[
				`<@${ADMIN}> removed the report for <#31>`,
				`<@${ADMIN}> (dashboard) removed the report for <#32>`,
				`<@${ADMIN}> removed the report for <#33>`,
			],
			'no line when there was nothing to remove',
		);
	});

	test('a name that matches no report channel asks to pick from the list; nothing is removed', async () => {
		assert.equal((await refusal(removeReport(ctx, admin, GUILD, 'general'))).key, 'reportRemove.pickFromList');
		assert.equal((await refusal(removeReport(ctx, admin, GUILD, ''))).key, 'reportRemove.pickFromList');
		assert.equal((await stored()).length, 3);
	});

	test('lists each report with whether it counts, its next post and its pause', async () => {
		const listing = await listReports(ctx, admin, GUILD);
		assert.equal(listing.counted, 2);
		assert.equal(listing.max, 5);
		assert.deepEqual(
			listing.reports.map(({ record, counted, nextDue, pause, resumable }) => ({
				channelId: record.channelId,
				counted,
				nextDue,
				pause: pause?.reason ?? null,
				resumable,
			})),
			[
				{
					channelId: '31',
					counted: true,
					nextDue: Date.parse('2026-12-01T08:00:00Z') + reportDelayMs({ guildId: GUILD }),
					pause: null,
					resumable: false,
				},
				{ channelId: '32', counted: true, nextDue: null, pause: 'keyRejected', resumable: true },
				{ channelId: '33', counted: false, nextDue: null, pause: 'channelGone', resumable: false },
			],
		);
		const channels = await listReportChannels(ctx, admin, GUILD);
		assert.deepEqual(
			channels.map(({ record, state, name }) => [record.channelId, state, name]),
			[
				['31', 'exists', 'name-of-31'],
				['32', 'exists', 'name-of-32'],
				['33', 'deleted', null],
			],
		);
	});

	test('without Manage Server nothing is listed or removed', async () => {
		for (const refused of [
			removeReport(ctx, member, GUILD, '31'),
			listReports(ctx, member, GUILD),
			listReportChannels(ctx, member, GUILD),
		]) {
			assert.equal((await refusal(refused)).key, 'errors.manageServerRequired');
		}
		assert.equal((await stored()).length, 3);
		assert.deepEqual(posts, []);
	});
});
