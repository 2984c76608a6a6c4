import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { execute, onAutocomplete } from '../../commands/report.js';
import { definition } from '../../commands/definitions/report.js';
import type { AutocompleteInteraction } from '../../src/discord/interaction.js';
import { UserFacingError } from '../../src/errors.js';
import { permissionList } from '../../src/permissions.js';
import { buildReportPost } from '../../src/reports/build-report-post.js';
import { createReportStore } from '../../src/reports/report-store.js';
import { reportDelayMs } from '../../src/reports/schedule.js';
import { countFigures } from '../../src/core/count-records.js';
import {
	GUILD,
	openReportContext,
	PNG,
	REJECTED_KEY,
	reportCommand,
	type ReportTestContext,
} from '../reports/report-context.js';
import { makeReport } from '../reports/records.js';

const ALL_POSTING = 0x400n | 0x800n | 0x4000n | 0x8000n;
const TEXT = 0;

let env: ReportTestContext;
before(async () => {
	env = await openReportContext();
});
after(async () => env.close());
beforeEach(async () => {
	await env.ctx.stores.reports.clear();
	env.serverKeys.clear();
	env.serverKeys.set(GUILD, 'good-key-0000000000000000');
	env.unreadable.clear();
	env.deletedChannels.clear();
});

const add = (channelId: string, extra: Partial<Parameters<typeof reportCommand>[0]> = {}) =>
	reportCommand({ subcommand: 'add', channel: { id: channelId, type: TEXT }, strings: { every: 'daily' }, ...extra });

async function refusal(promise: Promise<unknown>): Promise<UserFacingError> {
	const error = await promise.then(
		() => assert.fail('expected a refusal'),
		(thrown: unknown) => thrown,
	);
	assert.ok(error instanceof UserFacingError, String(error));
	return error;
}

describe('/report add', () => {
	test('stores the report and answers privately with exactly what will be posted', async () => {
		const interaction = add('200000000000000001', {
			strings: { every: 'weekly', timezone: 'Europe/Berlin', weekday: 'fri' },
			integers: { hour: 7 },
		});
		await execute(interaction, env.ctx);
		assert.equal(interaction.acknowledgement, 'defer');
		const stored = await createReportStore(env.ctx.stores).get(GUILD, '200000000000000001');
		assert.ok(stored);
		assert.deepEqual(
			{ every: stored.every, hour: stored.hour, timezone: stored.timezone, weekday: stored.weekday },
			{ every: 'weekly', hour: 7, timezone: 'Europe/Berlin', weekday: 'fri' },
		);
		const [answer] = interaction.replies;
		assert.ok(answer);
		assert.equal(answer.visibility, 'edit');
		const post = await buildReportPost(env.ctx, stored);
		assert.match(
			answer.payload.content ?? '',
			/^Report added for <#200000000000000001>: weekly on Friday at 07:00 \(Europe\/Berlin\)/,
		);
		assert.ok(answer.payload.content?.endsWith(`\n\n${post.content}`), 'the preview carries the post header');
		assert.deepEqual(answer.payload.embeds, post.embeds);
		assert.deepEqual(
			answer.payload.files?.map((file) => [file.name, file.data.equals(PNG)]),
			post.files.map((file) => [file.name, true]),
		);
		assert.equal(post.files.length, 1, 'the chart is attached');
		// The post follows the server's language (de), the confirmation the member's.
		assert.match(post.content, /Wochenbericht|Bericht/);
		assert.deepEqual(
			await countFigures(env.ctx.stores).then((figures) => figures.find(([name]) => name === 'reports')),
			['reports', 1],
		);
	});

	test('defaults: daily at 09:00 UTC; adding again replaces, and resumes a paused report', async () => {
		const reports = createReportStore(env.ctx.stores);
		await execute(add('5'), env.ctx);
		const stored = await reports.get(GUILD, '5');
		assert.deepEqual([stored?.every, stored?.hour, stored?.timezone, stored?.weekday], ['daily', 9, 'UTC', null]);
		const again = add('5');
		await execute(again, env.ctx);
		assert.match(again.replies[0]?.payload.content ?? '', /replaced/);
		await reports.put({ ...stored!, paused: { reason: 'channelGone', at: 0 } });
		const resume = add('5');
		await execute(resume, env.ctx);
		assert.match(resume.replies[0]?.payload.content ?? '', /resumed/);
		assert.equal((await reports.get(GUILD, '5'))?.paused, null);
	});

	test('at most 5 per server; replacing one of them still works', async () => {
		for (let channel = 1; channel <= 5; channel += 1) await execute(add(String(channel)), env.ctx);
		const error = await refusal(execute(add('6'), env.ctx));
		assert.equal(error.key, 'report.tooMany');
		assert.deepEqual(error.vars, { max: 5 });
		await execute(add('3', { strings: { every: 'weekly' } }), env.ctx);
		assert.equal((await createReportStore(env.ctx.stores).listServer(GUILD)).length, 5);
	});

	test('a report paused because its channel is gone does not count towards the 5', async () => {
		const reports = createReportStore(env.ctx.stores);
		for (let channel = 1; channel <= 4; channel += 1) await execute(add(String(channel)), env.ctx);
		await reports.put(makeReport({ channelId: '9', paused: { reason: 'channelGone', at: 1 } }));
		await execute(add('5'), env.ctx);
		assert.equal((await reports.listServer(GUILD)).length, 6);
		assert.equal((await refusal(execute(add('6'), env.ctx))).key, 'report.tooMany');

		const list = reportCommand({ subcommand: 'list' });
		await execute(list, env.ctx);
		const lines = (list.replies[0]?.payload.content ?? '').split('\n');
		assert.match(lines[0] ?? '', /\(5\/5\)/);
		assert.match(lines.at(-1) ?? '', /no longer counts towards the 5: remove it with `\/report remove`/);
	});

	test('at the limit, a channel deleted since its report last posted is found out and stops counting', async () => {
		const reports = createReportStore(env.ctx.stores);
		for (let channel = 1; channel <= 5; channel += 1) await execute(add(String(channel)), env.ctx);
		env.deletedChannels.add('2');
		await execute(add('6'), env.ctx);
		assert.equal((await reports.get(GUILD, '6'))?.paused, null);
		assert.equal((await reports.get(GUILD, '2'))?.paused?.reason, 'channelGone');
		assert.equal((await refusal(execute(add('7'), env.ctx))).key, 'report.tooMany');
	});

	test('Manage Server is checked on every run, and the command is server-only', async () => {
		assert.equal(definition.toJSON().default_member_permissions, '32');
		assert.equal(
			(await refusal(execute(add('1', { memberPermissions: 0x400n }), env.ctx))).key,
			'errors.manageServerRequired',
		);
		assert.equal(
			(await refusal(execute(add('1', { memberPermissions: null }), env.ctx))).key,
			'errors.manageServerRequired',
		);
		assert.equal((await refusal(execute(add('1', { guildId: null }), env.ctx))).key, 'errors.guildOnly');
		assert.equal(await createReportStore(env.ctx.stores).get(GUILD, '1'), null);
	});

	test('needs a readable, accepted server key', async () => {
		env.serverKeys.clear();
		assert.equal((await refusal(execute(add('1'), env.ctx))).key, 'report.needsServerKey');
		env.serverKeys.set(GUILD, 'good-key-0000000000000000');
		env.unreadable.add(GUILD);
		assert.equal((await refusal(execute(add('1'), env.ctx))).key, 'errors.serverRelinkNeeded');
		env.unreadable.clear();
		env.serverKeys.set(GUILD, REJECTED_KEY);
		assert.equal((await refusal(execute(add('1'), env.ctx))).key, 'errors.serverKeyRejected');
		assert.equal(await createReportStore(env.ctx.stores).get(GUILD, '1'), null, 'nothing stored');
	});

	test('refuses what Discord would not send: bad zone, hour, weekday without weekly, a voice channel', async () => {
		const cases: [Parameters<typeof reportCommand>[0], string][] = [
			[
				{ subcommand: 'add', channel: { id: '1', type: TEXT }, strings: { every: 'daily', timezone: 'Mars/Base' } },
				'report.invalidTimezone',
			],
			[
				{ subcommand: 'add', channel: { id: '1', type: TEXT }, strings: { every: 'daily' }, integers: { hour: 24 } },
				'report.invalidHour',
			],
			[
				{ subcommand: 'add', channel: { id: '1', type: TEXT }, strings: { every: 'daily', weekday: 'mon' } },
				'report.weekdayNeedsWeekly',
			],
			[{ subcommand: 'add', channel: { id: '1', type: TEXT }, strings: { every: 'hourly' } }, 'report.invalidSchedule'],
			[{ subcommand: 'add', channel: { id: '1', type: 2 }, strings: { every: 'daily' } }, 'report.notTextChannel'],
		];
		for (const [input, key] of cases) assert.equal((await refusal(execute(reportCommand(input), env.ctx))).key, key);
	});

	test('stores the zone as typed: Asia/Kolkata stays Asia/Kolkata', async () => {
		await execute(add('1', { strings: { every: 'daily', timezone: 'Asia/Kolkata' } }), env.ctx);
		assert.equal((await createReportStore(env.ctx.stores).get(GUILD, '1'))?.timezone, 'Asia/Kolkata');
	});

	test("checks the bot's permissions: from the interaction in the channel typed in, read with its token elsewhere", async () => {
		const here = '200000000000000009';
		const error = await refusal(execute(add(here, { channelId: here, appPermissions: 0x400n | 0x800n }), env.ctx));
		assert.equal(error.key, 'report.cannotPost');
		assert.deepEqual(error.vars, { channelId: here, permissions: permissionList(['embedLinks', 'attachFiles']) });
		await execute(add(here, { channelId: here, appPermissions: ALL_POSTING }), env.ctx);
		await execute(add('7', { channelId: here, appPermissions: 0n }), env.ctx);
		assert.equal((await createReportStore(env.ctx.stores).listServer(GUILD)).length, 2);

		env.botPermissions.set('8', 0x400n | 0x800n | 0x4000n);
		const elsewhere = await refusal(execute(add('8', { channelId: here, appPermissions: ALL_POSTING }), env.ctx));
		assert.equal(elsewhere.key, 'report.cannotPost');
		assert.deepEqual(elsewhere.vars, { channelId: '8', permissions: permissionList(['attachFiles']) });
		assert.equal(await createReportStore(env.ctx.stores).get(GUILD, '8'), null, 'nothing stored');
		env.botPermissions.delete('8');
	});
});

describe('/report list and remove', () => {
	test('lists schedules with the next run, and paused reports with their reason', async () => {
		const reports = createReportStore(env.ctx.stores);
		await reports.put(makeReport({ channelId: '11', hour: 9, timezone: 'Europe/Berlin' }));
		await reports.put(
			makeReport({
				channelId: '12',
				paused: { reason: 'missingPermissions', permissions: ['sendMessages', 'attachFiles'], at: 0 },
			}),
		);
		await reports.put(makeReport({ channelId: '13', paused: { reason: 'keyRejected', at: 0 } }));
		const interaction = reportCommand({ subcommand: 'list', createdAt: Date.parse('2026-11-30T12:00:00Z') });
		await execute(interaction, env.ctx);
		const lines = (interaction.replies[0]?.payload.content ?? '').split('\n');
		assert.equal(lines[0], '**Scheduled reports** (3/5)');
		// The next post is the chosen hour plus the server's stable delay inside it.
		const next = Date.parse('2026-12-01T08:00:00Z') + reportDelayMs(makeReport());
		assert.equal(lines[1], `<#11>: daily at 09:00 (Europe/Berlin), last 7 days; next <t:${next / 1000}:F>`);
		assert.match(lines[2] ?? '', /^<#12>: .*paused\*\*: the bot lacks Send Messages and Attach Files in that channel$/);
		assert.match(lines[3] ?? '', /^<#13>: .*rejected the server's key/);
		assert.match(lines[4] ?? '', /\/report add/);
	});

	test('an empty list says how to add one; remove says whether there was one', async () => {
		const list = reportCommand({ subcommand: 'list' });
		await execute(list, env.ctx);
		assert.match(list.replies[0]?.payload.content ?? '', /no scheduled reports/);
		await createReportStore(env.ctx.stores).put(makeReport({ channelId: '21' }));
		const removed = reportCommand({ subcommand: 'remove', channel: { id: '21', type: TEXT } });
		await execute(removed, env.ctx);
		assert.equal(removed.replies[0]?.payload.content, 'Removed the report for <#21>.');
		const again = reportCommand({ subcommand: 'remove', channel: { id: '21', type: TEXT } });
		await execute(again, env.ctx);
		assert.equal(again.replies[0]?.payload.content, 'There is no report for <#21>.');
	});
});

describe('/report definition and autocomplete', () => {
	test('option names as documented, localised descriptions and choices', () => {
		const json = definition.toJSON();
		const add = json.options?.find((option) => option.name === 'add') as {
			options: {
				name: string;
				description_localizations?: object;
				choices?: { value: string; name_localizations?: object }[];
			}[];
		};
		assert.deepEqual(
			add.options.map((option) => option.name),
			['channel', 'every', 'hour', 'timezone', 'weekday'],
		);
		for (const option of add.options)
			assert.equal(Object.keys(option.description_localizations ?? {}).length, 7, option.name);
		const weekday = add.options.find((option) => option.name === 'weekday');
		assert.deepEqual(
			weekday?.choices?.map((choice) => choice.value),
			['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
		);
		assert.equal(Object.keys(weekday?.choices?.[0]?.name_localizations ?? {}).length, 7);
		assert.deepEqual(
			json.options?.map((option) => option.name),
			['add', 'remove', 'list'],
		);
	});

	test('suggests at most 25 matching zones', async () => {
		let answered: { name: string; value: string | number }[] = [];
		const interaction = {
			kind: 'autocomplete',
			focused: { name: 'timezone', value: 'europe/' },
			respond: async (choices: typeof answered) => {
				answered = choices;
			},
		} as unknown as AutocompleteInteraction;
		await onAutocomplete(interaction, env.ctx);
		assert.equal(answered.length, 25);
		assert.ok(answered.every((choice) => String(choice.value).startsWith('Europe/') && choice.name === choice.value));
	});
});
