// /note end to end, and the notes on the charts of /stats, Share, reports, boards and digests: the real bot, the
// Discord stand-in, the bundled stats service and the local renderer. A server's notes mark the server's charts only,
// a member's their own only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildBoardPost } from '../../src/boards/board-post.js';
import { buildDigestMessage } from '../../src/digests/build-digest.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { noteStoreOf } from '../../src/notes/note-store.js';
import { buildReportPost } from '../../src/reports/build-report-post.js';
import { REPORT_SCHEMA_VERSION } from '../../src/reports/report-record.js';
import { ADMIN_PERMISSIONS, createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';

const ADMIN = '330000000000000101';
const MEMBER = '330000000000000102';

describe('/note and the notes on charts', () => {
	let h: Harness;
	const guild = () => h.sandbox.guilds[0]!;
	const today = () => utcDateOf(h.now());

	before(async () => {
		h = await startHarness();
		const serverKey = createAccount(h, 'Note_Community');
		await linkViaModal(h, serverKey, {
			userId: ADMIN,
			guildId: guild().id,
			server: true,
			permissions: ADMIN_PERMISSIONS,
		});
		await linkViaModal(h, createAccount(h, 'Note_Member'), { userId: MEMBER, guildId: guild().id });
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	function run(
		subcommand: string | undefined,
		options: { name: string; type: number; value: unknown; focused?: boolean }[] = [],
		where: { userId?: string; permissions?: string; locale?: string; name?: string; autocomplete?: boolean } = {},
	) {
		return h.sandbox.dispatchCommand({
			name: 'note',
			subcommand,
			options,
			userId: ADMIN,
			guildId: guild().id,
			permissions: ADMIN_PERMISSIONS,
			...where,
		} as Parameters<Harness['sandbox']['dispatchCommand']>[0]);
	}
	const add = (date: string, text: string, scope = 'server', where = {}) =>
		run(
			'add',
			[
				{ name: 'date', type: 3, value: date },
				{ name: 'text', type: 3, value: text },
				{ name: 'scope', type: 3, value: scope },
			],
			where,
		).finalMessage();
	const stats = (scope: string, userId = ADMIN) =>
		h.sandbox
			.dispatchCommand({
				name: 'stats',
				options: [
					{ name: 'scope', type: 3, value: scope },
					{ name: 'days', type: 4, value: 7 },
				],
				userId,
				guildId: guild().id,
				permissions: ADMIN_PERMISSIONS,
			})
			.finalMessage();
	const chartOf = (message: { files: { bytes: Buffer }[] }) => {
		assert.equal(message.files.length, 1, 'a chart is attached');
		return message.files[0]!.bytes;
	};

	it('refuses privately with the reason: a bad day, a day after today, no Manage Server', async () => {
		const bad = await add('2026-02-30', 'x');
		assert.ok(bad.isEphemeral);
		assert.equal(bad.content, '2026-02-30 is not a day of the calendar.');
		const tomorrow = addDays(today(), 1);
		assert.match(
			(await add(tomorrow, 'x')).content,
			new RegExp(`^${tomorrow} is after today \\(${today()}, UTC\\)`, 'u'),
		);
		const notAdmin = await add(today(), 'x', 'server', { userId: MEMBER, permissions: '0' });
		assert.match(notAdmin.content, /Only members with the Manage Server permission can use `\/note`/u);
		assert.equal(
			(await noteStoreOf(h.bot.ctx).read({ scope: 'server', guildId: guild().id })).length,
			0,
			'nothing stored',
		);
	});

	it("adds a server note: the server's /stats chart changes, the member's does not", async () => {
		const serverBefore = chartOf(await stats('server'));
		const memberBefore = chartOf(await stats('me', MEMBER));
		const added = await add(addDays(today(), -2), 'campaign **A** started');
		assert.ok(added.isEphemeral);
		assert.equal(
			added.content,
			`Note added to the server's charts: ${addDays(today(), -2)} — campaign \\*\\*A\\*\\* started`,
		);
		assert.ok(!chartOf(await stats('server')).equals(serverBefore), 'the server chart shows the note');
		assert.ok(chartOf(await stats('me', MEMBER)).equals(memberBefore), "the member's chart does not");
	});

	it("a member's own note marks their chart only; /note list shows each scope's", async () => {
		const serverBefore = chartOf(await stats('server'));
		const memberBefore = chartOf(await stats('me', MEMBER));
		const added = await add(addDays(today(), -1), 'my mail', 'me', { userId: MEMBER, permissions: '0' });
		assert.match(added.content, /^Note added to your charts: /u);
		assert.ok(!chartOf(await stats('me', MEMBER)).equals(memberBefore));
		assert.ok(chartOf(await stats('server')).equals(serverBefore));
		const mine = await run('list', [], { userId: MEMBER, permissions: '0' }).finalMessage();
		assert.equal(mine.content, `**Your notes** (1/50)\n- ${addDays(today(), -1)} — my mail`);
		const servers = await run('list', [{ name: 'scope', type: 3, value: 'server' }]).finalMessage();
		assert.match(servers.content, /^\*\*The server's notes\*\* \(1\/50\)\n- .* — campaign \\\*\\\*A\\\*\\\* started$/u);
	});

	it("a report, a board and a digest draw their own scope's notes", async () => {
		const serverNotes = noteStoreOf(h.bot.ctx);
		const report = () =>
			buildReportPost(h.bot.ctx, {
				v: REPORT_SCHEMA_VERSION,
				guildId: guild().id,
				channelId: guild().defaultChannelId,
				every: 'daily',
				hour: 9,
				timezone: 'UTC',
				weekday: 'mon',
				createdBy: ADMIN,
				since: 0,
				guildLocale: 'en-US',
				paused: null,
			});
		const board = () =>
			buildBoardPost(
				h.bot.ctx,
				{ guildId: guild().id, days: 7, metric: 'sends' },
				{ locale: 'en-US', everyMinutes: 10 },
			);
		const digest = () =>
			buildDigestMessage(
				h.bot.ctx,
				{ userId: MEMBER, locale: 'en-US', weekday: 'mon', hour: 9, timezone: 'UTC' },
				h.now(),
			);
		const before = {
			report: (await report()).files[0]!.data,
			board: (await board()).message.files![0]!.data,
			digest: (await digest()).files![0]!.data,
		};
		await add(addDays(today(), -4), 'second campaign');
		assert.ok(!(await report()).files[0]!.data.equals(before.report), 'the report draws the new server note');
		assert.ok(!(await board()).message.files![0]!.data.equals(before.board), 'the board too');
		assert.ok((await digest()).files![0]!.data.equals(before.digest), "the member's digest does not");
		await add(addDays(today(), -5), 'my second mail', 'me', { userId: MEMBER, permissions: '0' });
		assert.ok(!(await digest()).files![0]!.data.equals(before.digest), "the member's own note is in their digest");
		assert.equal((await serverNotes.read({ scope: 'server', guildId: guild().id })).length, 2);
	});

	it("removes through the autocomplete: the scope's notes, newest day first; Manage Server to see the server's", async () => {
		const choices = async (value: string, where: { userId?: string; permissions?: string } = {}, scope = 'server') => {
			const response = await run(
				'remove',
				[
					{ name: 'note', type: 3, value, focused: true },
					{ name: 'scope', type: 3, value: scope },
				],
				{ autocomplete: true, ...where },
			).firstResponse();
			assert.equal(response.type, 8, 'answered with autocomplete choices');
			return (response.data.choices ?? []) as { name: string; value: string }[];
		};
		const offered = await choices('');
		assert.deepEqual(
			offered.map((choice) => choice.name),
			[`${addDays(today(), -2)} — campaign **A** started`, `${addDays(today(), -4)} — second campaign`],
		);
		assert.deepEqual(await choices('', { userId: MEMBER, permissions: '0' }), [], 'no list for a non-admin');
		assert.deepEqual(
			(await choices('', { userId: MEMBER, permissions: '0' }, 'me')).map((choice) => choice.name),
			[`${addDays(today(), -1)} — my mail`, `${addDays(today(), -5)} — my second mail`],
		);
		assert.deepEqual(
			(await choices('SECOND')).map((choice) => choice.name),
			[`${addDays(today(), -4)} — second campaign`],
		);
		const removed = await run('remove', [
			{ name: 'note', type: 3, value: offered[1]!.value },
			{ name: 'scope', type: 3, value: 'server' },
		]).finalMessage();
		assert.equal(removed.content, `Note removed: ${addDays(today(), -4)} — second campaign`);
		const again = await run('remove', [
			{ name: 'note', type: 3, value: offered[1]!.value },
			{ name: 'scope', type: 3, value: 'server' },
		]).finalMessage();
		assert.match(again.content, /^There is no such note/u);
	});

	it('answers in Japanese', async () => {
		const ja = await run('list', [{ name: 'scope', type: 3, value: 'server' }], { locale: 'ja' }).finalMessage();
		assert.match(ja.content, /^\*\*サーバーのメモ\*\* \(1\/50\)\n/u);
	});
});
