// /goal end to end, and the goals in /stats: the real bot, the Discord stand-in and the bundled stats service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildBoardPost } from '../../src/boards/board-post.js';
import { LOCALES } from '../../src/i18n/index.js';
import { buildReportPost } from '../../src/reports/build-report-post.js';
import { REPORT_SCHEMA_VERSION } from '../../src/reports/report-record.js';
import { embedTextLength, EMBED_LIMITS } from '../../src/render/embed-limits.js';
import { ADMIN_PERMISSIONS, createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';

const ADMIN = '320000000000000101';
const MEMBER = '320000000000000102';

interface Embed {
	fields: { name: string; value: string }[];
}

describe('/goal and the goal fields of /stats', () => {
	let h: Harness;
	const guild = () => h.sandbox.guilds[0]!;

	before(async () => {
		h = await startHarness();
		const apiKey = createAccount(h, 'Goal_Community');
		await linkViaModal(h, apiKey, { userId: ADMIN, guildId: guild().id, server: true, permissions: ADMIN_PERMISSIONS });
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	function run(
		name: string,
		subcommand: string | undefined,
		options: { name: string; type: number; value: unknown }[] = [],
		where: { userId?: string; permissions?: string; locale?: string } = {},
	) {
		return h.sandbox
			.dispatchCommand({
				name,
				subcommand,
				options,
				userId: ADMIN,
				guildId: guild().id,
				permissions: ADMIN_PERMISSIONS,
				...where,
			} as Parameters<Harness['sandbox']['dispatchCommand']>[0])
			.finalMessage();
	}
	const goal = (metric: string, target: number, period: string, scope = 'server') => [
		{ name: 'metric', type: 3, value: metric },
		{ name: 'target', type: 4, value: target },
		{ name: 'period', type: 3, value: period },
		{ name: 'scope', type: 3, value: scope },
	];

	it('refuses privately: no link for scope:me, no Manage Server for scope:server', async () => {
		const noLink = await run('goal', 'set', goal('sends', 100, 'month', 'me'), { userId: MEMBER, permissions: '0' });
		assert.ok(noLink.isEphemeral);
		assert.match(noLink.content, /you have no API key linked\. Run `\/link` first/u);
		const notAdmin = await run('goal', 'set', goal('sends', 100, 'month'), { userId: MEMBER, permissions: '0' });
		assert.ok(notAdmin.isEphemeral);
		assert.match(notAdmin.content, /Only members with the Manage Server permission can use `\/goal`/u);
		assert.match((await run('goal', 'show', [{ name: 'scope', type: 3, value: 'server' }])).content, /No goals yet/u);
	});

	it('sets four server goals; a fifth set of the same metric and period replaces one', async () => {
		for (const [metric, target, period] of [
			['sends', 1, 'month'],
			['sends', 20000, 'month'],
			['sends', 4000, 'week'],
			['joins', 900, 'month'],
			['joins', 200, 'week'],
		] as const) {
			const reply = await run('goal', 'set', goal(metric, target, period));
			assert.ok(reply.isEphemeral);
			assert.match(reply.content, /^Goal set: (sends|joins) this (month|week), target [\d,]+\.$/u);
		}
		const shown = await run('goal', 'show', [{ name: 'scope', type: 3, value: 'server' }]);
		assert.match(shown.content, /^\*\*The server's goals\*\* \(4\/4\)\n/u);
		assert.match(
			shown.content,
			/\*\*sends this month\*\*: [\d,]+ \/ 20,000 \(\d+ %\) · on pace for [\d,]+ \([\d,]+–[\d,]+\)/u,
		);
	});

	it('the /stats embed has one field per goal, in English and in Japanese, the same figures as /goal show', async () => {
		const en = (await run('stats', undefined, [{ name: 'scope', type: 3, value: 'server' }]))
			.embeds[0] as unknown as Embed;
		const goals = en.fields.slice(-4);
		assert.deepEqual(
			goals.map((field) => field.name),
			['Goal: sends this month', 'Goal: sends this week', 'Goal: joins this month', 'Goal: joins this week'],
		);
		// Sends have 30 days of daily_breakdown: a forecast. Joins have no history yet: the day one becomes possible.
		assert.match(goals[0]!.value, /^[\d,]+ \/ 20,000 \(\d+ %\) · on pace for [\d,]+ \([\d,]+–[\d,]+\)$/u);
		assert.match(goals[2]!.value, /^[\d,]+ \/ 900 \(\d+ %\) · forecast from [A-Z][a-z]+ \d{1,2}, \d{4}$/u);
		const shown = await run('goal', 'show', [{ name: 'scope', type: 3, value: 'server' }]);
		for (const field of goals) assert.ok(shown.content.includes(field.value), `${field.value} in /goal show`);

		const ja = (await run('stats', undefined, [{ name: 'scope', type: 3, value: 'server' }], { locale: 'ja' }))
			.embeds[0] as unknown as Embed;
		const jaGoals = ja.fields.slice(-4);
		assert.equal(jaGoals[0]!.name, '目標: 今月の送信数');
		assert.match(jaGoals[0]!.value, /^[\d,]+ \/ 20,000 \(\d+ %\) · 見込み [\d,]+ \([\d,]+–[\d,]+\)$/u);
		assert.match(jaGoals[2]!.value, /· 予測は \d{4}年\d{1,2}月\d{1,2}日 から$/u);
		// The same figures, only the words differ.
		assert.equal(jaGoals[0]!.value.split(' · ')[0], goals[0]!.value.split(' · ')[0]);
	});

	it("a report and a board of the server show the server's goals, as /stats does", async () => {
		const stats = (await run('stats', undefined, [{ name: 'scope', type: 3, value: 'server' }]))
			.embeds[0] as unknown as Embed;
		const goalNames = (fields: readonly { name: string }[] = []) =>
			fields.map((field) => field.name).filter((name) => name.startsWith('Goal: '));
		assert.equal(goalNames(stats.fields).length, 4);
		const report = await buildReportPost(h.bot.ctx, {
			v: REPORT_SCHEMA_VERSION,
			guildId: guild().id,
			channelId: guild().defaultChannelId,
			every: 'weekly',
			hour: 9,
			timezone: 'UTC',
			weekday: 'mon',
			createdBy: ADMIN,
			since: 0,
			guildLocale: 'en-US',
			paused: null,
		});
		assert.deepEqual(goalNames(report.embeds[0]?.fields), goalNames(stats.fields));
		const board = await buildBoardPost(
			h.bot.ctx,
			{ guildId: guild().id, days: 30, metric: 'sends' },
			{ locale: 'en-US', everyMinutes: 10 },
		);
		assert.deepEqual(goalNames(board.message.embeds?.[0]?.fields), goalNames(stats.fields));
	});

	it('with four goals the embed stays within Discord limits in every language', async () => {
		for (const locale of LOCALES) {
			const embed = (await run('stats', undefined, [{ name: 'scope', type: 3, value: 'server' }], { locale }))
				.embeds[0] as unknown as Embed & { title: string };
			assert.equal(embed.fields.length, 12, locale);
			assert.ok(embed.fields.length <= EMBED_LIMITS.fields);
			assert.ok(embedTextLength(embed) <= EMBED_LIMITS.total, locale);
			for (const field of embed.fields) assert.ok(field.value.length <= EMBED_LIMITS.fieldValue);
		}
	});

	it('target 0 is refused with the words of the dashboard, and removing a goal says so', async () => {
		const zero = await run('goal', 'set', goal('sends', 0, 'month'));
		assert.match(zero.content, /^The target must be a whole number of at least 1\.$/u);
		const removal = await run('goal', 'remove', [
			{ name: 'metric', type: 3, value: 'joins' },
			{ name: 'period', type: 3, value: 'week' },
			{ name: 'scope', type: 3, value: 'server' },
		]);
		assert.equal(removal.content, 'Goal removed: joins this week.');
	});
});
