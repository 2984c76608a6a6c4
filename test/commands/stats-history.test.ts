import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { buildServerReport } from '../../src/stats/show-stats.js';
import { embedGoalsFor } from '../../src/goals/goal-embed.js';
import {
	createAccount,
	EPHEMERAL,
	linkViaModal,
	ADMIN_PERMISSIONS,
	startHarness,
	type Harness,
} from '../app/harness.js';
import { barValue, pastSnapshot, seededJoins, seededSends, seedHistory, startFakeQuickChart } from './stats-support.js';
import type { FakeQuickChart, RecordedChart } from './stats-support.js';
import { waitUntil } from '../links/wait-until.js';
import type { CommandOptionInput } from '../../sandbox/index.js';

const ALICE = '320000000000000001';
const BOB = '320000000000000002';
const CAROL = '320000000000000003';
const ADMIN = '320000000000000009';
const SEEDED_DAYS = 120;
/**
 * The bot and the bundled service run on one clock that starts at 12:18 UTC on a fixed day and moves with
 * real time: "today" cannot change under the test at midnight, and later writes still come later.
 */
const CLOCK_START = Date.parse('2026-11-23T12:18:00Z');
const TODAY = '2026-11-23';

const integer = (name: string, value: number) => ({ name, type: 4, value });
const string = (name: string, value: string) => ({ name, type: 3, value });

describe('/stats and /export from the history the bot keeps', () => {
	let h: Harness;
	let quickchart: FakeQuickChart;
	let aliceKey: string;
	let bobKey: string;
	const today = TODAY;

	before(async () => {
		quickchart = await startFakeQuickChart();
		const startedAt = performance.now();
		h = await startHarness({
			env: { CHART_RENDERER: 'quickchart', QUICKCHART_URL: quickchart.url },
			now: () => CLOCK_START + Math.round(performance.now() - startedAt),
		});
		aliceKey = createAccount(h, 'Alice_Ads');
		bobKey = createAccount(h, 'Bob_Ads');
		await linkViaModal(h, aliceKey, { userId: ALICE });
		await linkViaModal(h, bobKey, { userId: BOB });
		assert.equal(utcDateOf(h.now()), TODAY);
		await seedHistory(h, aliceKey, SEEDED_DAYS);
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
		await quickchart.close();
	});

	/** Runs /stats and returns the reply with the chart config the bot drew for it. */
	async function stats(userId: string, options: CommandOptionInput[], where: object = {}) {
		const before = quickchart.charts.length;
		const message = await h.sandbox.dispatchCommand({ name: 'stats', userId, options, ...where }).finalMessage();
		const charts = quickchart.charts.slice(before);
		const embed = message.embeds[0] as { description: string; fields: { name: string; value: string }[] };
		return { message, embed, chart: charts.at(-1) as RecordedChart | undefined };
	}

	it('registers /stats with metric and 7 to 365 days, and /export with scope and days', () => {
		const commands = h.sandbox.registeredCommands() as {
			name: string;
			options: { name: string; choices?: { value: unknown }[] }[];
		}[];
		const statsCommand = commands.find((c) => c.name === 'stats')!;
		assert.deepEqual(
			statsCommand.options.map((o) => o.name),
			['scope', 'days', 'share', 'metric', 'from', 'to'],
		);
		const choices = (name: string) => statsCommand.options.find((o) => o.name === name)!.choices!.map((c) => c.value);
		assert.deepEqual(choices('days'), [7, 14, 30, 90, 180, 365]);
		assert.deepEqual(choices('metric'), ['sends', 'joins', 'conversion']);
		const exportCommand = commands.find((c) => c.name === 'export')!;
		assert.deepEqual(
			exportCommand.options.map((o) => o.name),
			['scope', 'days', 'from', 'to'],
		);
	});

	it("days:90 draws 90 days, the ones before the endpoint's 30 from the history", async () => {
		const { embed, chart } = await stats(ALICE, [integer('days', 90)]);
		assert.ok(chart, 'a chart was drawn');
		assert.equal(chart.data.labels.length, 90);
		const oldest = addDays(today, -89);
		assert.equal(barValue(chart, 0), seededSends(oldest), 'the oldest day comes from the seeded history');
		assert.match(chart.options.plugins.subtitle.text, /^Sends per day, .*\d{4}.* \(UTC\)$/u, 'the range has the year');
		assert.equal(chart.options.plugins.title.text, 'Alice_Ads', 'the picture names the account');
		assert.equal(chart.options.scales.y.title.text, 'Sends');
		assert.doesNotMatch(embed.description, /History starts/u, 'history covers all 90 days');
	});

	it('days:365 starts the chart where the history starts, and says since when', async () => {
		const { embed, chart } = await stats(ALICE, [integer('days', 365)]);
		const firstKnown = addDays(today, -(SEEDED_DAYS + 29));
		assert.equal(chart?.data.labels.length, SEEDED_DAYS + 30);
		assert.equal(barValue(chart!, 0), seededSends(firstKnown));
		const written = new Intl.DateTimeFormat('en-US', {
			year: 'numeric',
			month: 'long',
			day: 'numeric',
			timeZone: 'UTC',
		});
		assert.match(embed.description, new RegExp(`History starts on ${written.format(Date.parse(firstKnown))}`, 'u'));
	});

	it('compares complete days with complete days: today beside yesterday, 7 and 30 full days to yesterday', async () => {
		const { embed } = await stats(ALICE, []);
		const field = (name: string) => embed.fields.find((f) => f.name === name)?.value;
		const live = (await h.bot.ctx.stats.fetchSnapshot(aliceKey)).snapshot;
		// Sends of a complete day: the live breakdown for its 30 days, the seeded history before them.
		const sendsAgo = (daysAgo: number) => {
			const date = addDays(today, -daysAgo);
			return live.sends.dailyBreakdown.find((day) => day.date === date)?.sends ?? seededSends(date);
		};
		const total = (from: number, to: number, figure: (daysAgo: number) => number) =>
			Array.from({ length: to - from + 1 }, (_, i) => figure(from + i)).reduce((a, b) => a + b, 0);
		const count = (value: number) => value.toLocaleString('en-US');
		const line = (metric: string, current: number, previous: number) => {
			const percent = Math.round(((current - previous) / previous) * 1000) / 10;
			const sign = percent > 0 ? `▲ +` : percent < 0 ? `▼ −` : `■ ±`;
			return `${metric}: **${count(current)}** ${sign}${Math.abs(percent).toFixed(1)} %`;
		};
		assert.equal(
			field('Today so far'),
			`Sends: **${count(live.sends.today!)}** · yesterday ${count(sendsAgo(1))}\n` +
				`Joins: **${count(live.joins.today!)}** · yesterday ${count(seededJoins(1))}`,
			'today so far has no percentage',
		);
		assert.equal(
			field('7 full days to yesterday'),
			`${line('Sends', total(1, 7, sendsAgo), total(8, 14, sendsAgo))}\n` +
				line('Joins', total(1, 7, seededJoins), total(8, 14, seededJoins)),
		);
		assert.equal(
			field('30 full days to yesterday'),
			`${line('Sends', total(1, 30, sendsAgo), total(31, 60, sendsAgo))}\n` +
				line('Joins', total(1, 30, seededJoins), total(31, 60, seededJoins)),
		);
		for (const name of ['Last 7 days', 'Last 30 days', 'All time']) {
			assert.doesNotMatch(field(name) ?? '', /[▲▼■★]/u, `${name} shows the service's totals, no change`);
		}
		assert.match(embed.fields.find((f) => f.name === 'Failed sends (all time)')!.value, /of attempts/u);

		// Bob's history is one day old: his breakdown knows 14 complete days of sends, nothing knows his joins per day.
		const bob = (await stats(BOB, [])).embed.fields;
		const bobField = (name: string) => bob.find((f) => f.name === name)?.value;
		assert.match(
			bobField('Today so far') ?? '',
			/^Sends: \*\*[\d,]+\*\* · yesterday [\d,]+\nJoins: \*\*[\d,]+\*\* · yesterday —$/u,
		);
		assert.match(
			bobField('7 full days to yesterday') ?? '',
			/^Sends: \*\*[\d,]+\*\* (▲ \+|▼ −|■ ±)[\d,]+\.\d %\nJoins: \*\*—\*\*$/u,
		);
		assert.equal(bobField('30 full days to yesterday'), 'Sends: **—**\nJoins: **—**', 'unknown, not 0');
	});

	it('metric:joins draws joins per day from the history', async () => {
		const { chart, embed } = await stats(ALICE, [string('metric', 'joins'), integer('days', 7)]);
		assert.ok(chart, embed.description);
		assert.equal(chart.data.labels.length, 7);
		for (let daysAgo = 1; daysAgo <= 6; daysAgo++) assert.equal(barValue(chart, 6 - daysAgo), seededJoins(daysAgo));
		assert.equal(chart.options.scales.y.title.text, 'Joins');
		const conversion = await stats(ALICE, [string('metric', 'conversion'), integer('days', 7)]);
		const yesterday = addDays(today, -1);
		const expected = Math.round(((seededJoins(1) * 100) / (await sendsOn(yesterday))) * 100) / 100;
		assert.equal(barValue(conversion.chart!, 5), expected, 'joins per 100 sends of yesterday');
	});

	it('metric:joins says when the first figure comes, and draws it after two days of snapshots', async () => {
		const first = await stats(BOB, [string('metric', 'joins')]);
		assert.equal(first.chart, undefined, 'nothing to draw yet');
		assert.equal(first.message.files.length, 0);
		const tomorrow = new Intl.DateTimeFormat('en-US', {
			year: 'numeric',
			month: 'long',
			day: 'numeric',
			timeZone: 'UTC',
		});
		assert.match(
			first.embed.description,
			new RegExp(`first figure will be there on ${tomorrow.format(Date.parse(addDays(today, 1)))}`, 'u'),
		);

		// The snapshot the sampler would have taken yesterday: 4 joins happened between it and today's.
		const live = (await h.bot.ctx.stats.fetchSnapshot(bobKey)).snapshot;
		const joinsBeforeToday = (live.joins.allTime ?? 0) - (live.joins.today ?? 0);
		await h.bot.ctx.history.record(pastSnapshot(live, addDays(today, -1), joinsBeforeToday - 4, 1));
		const second = await stats(BOB, [string('metric', 'joins'), integer('days', 7)]);
		assert.ok(second.chart);
		assert.equal(second.chart.data.labels.length, 2, 'the chart starts where the joins history starts');
		assert.equal(barValue(second.chart, 0), 4);
		assert.equal(barValue(second.chart, 1), live.joins.today, "today's joins so far");
	});

	it('/export answers privately with the CSV of the asked days, oldest first, ending today', async () => {
		const handle = h.sandbox.dispatchCommand({ name: 'export', userId: ALICE, options: [integer('days', 180)] });
		const message = await handle.finalMessage();
		assert.ok(message.isEphemeral);
		const first = addDays(today, -179);
		assert.equal(message.files.length, 1);
		assert.equal(message.files[0]!.name, `adstats-${first}-${today}.csv`);
		assert.equal(message.files[0]!.contentType, 'text/csv; charset=utf-8');
		assert.match(message.content, /Daily figures of \*\*Alice\\_Ads\*\*/u);
		const lines = message.files[0]!.bytes.toString('utf8').split('\r\n');
		assert.equal(lines[0], 'date,sends,joins,failed_sends');
		assert.equal(lines.at(-1), '', 'every row ends with CRLF');
		const rows = lines.slice(1, -1);
		assert.equal(rows.length, 180);
		assert.equal(rows[0], `${first},,,`, 'a day before the history is unknown, not 0');
		const yesterday = addDays(today, -1);
		assert.equal(rows.at(-2), `${yesterday},${await sendsOn(yesterday)},${seededJoins(1)},1`);
		assert.match(rows.at(-1)!, new RegExp(`^${today},\\d+,\\d+,$`, 'u'), 'today: no failed sends yet');
	});

	it('/export without a link answers with the how-to, like /stats', async () => {
		const message = await h.sandbox
			.dispatchCommand({ name: 'export', userId: CAROL, options: [integer('days', 7)] })
			.finalMessage();
		assert.ok(message.isEphemeral);
		assert.match(message.content, /You have not linked an API key yet/u);
		assert.equal(message.files.length, 0);
	});

	it('/unlink deletes the history only once no other link reads that account', async () => {
		const aliceHistory = historyAccountId('Alice_Ads');
		await linkAndSettle(aliceKey, 'Alice_Ads', { userId: CAROL });
		await h.sandbox.dispatchCommand({ name: 'unlink', userId: ALICE }).finalMessage();
		assert.notEqual(await h.bot.ctx.history.read(aliceHistory), null, 'Carol still reads Alice_Ads');
		const unlink = await h.sandbox.dispatchCommand({ name: 'unlink', userId: CAROL }).finalMessage();
		assert.match(unlink.content, /Unlinked/u);
		assert.equal(await h.bot.ctx.history.read(aliceHistory), null, 'the last link is gone, and its history too');
		assert.notEqual(await h.bot.ctx.history.read(historyAccountId('Bob_Ads')), null, "another account's stays");
	});

	it("/server-key remove deletes the server account's history when no member links it", async () => {
		const guildId = h.sandbox.guildIds[0]!;
		await linkAndSettle(bobKey, 'Bob_Ads', { userId: ADMIN, server: true, permissions: ADMIN_PERMISSIONS });
		const remove = async () =>
			h.sandbox
				.dispatchCommand({
					name: 'server-key',
					subcommand: 'remove',
					userId: ADMIN,
					guildId,
					permissions: ADMIN_PERMISSIONS,
				})
				.finalMessage();
		// What a scheduled report posts: built without an interaction, in the language it is given.
		const chartsBefore = quickchart.charts.length;
		const report = await buildServerReport(
			h.bot.ctx,
			guildId,
			{ days: 7, locale: 'de' },
			embedGoalsFor(h.bot.ctx, { scope: 'server', userId: '', guildId }),
		);
		const reportEmbed = report.embeds[0]!;
		assert.match(reportEmbed.description ?? '', /^Konto des Servers: \*\*Bob\\_Ads\*\*/u);
		assert.doesNotMatch(reportEmbed.description ?? '', /Geteilt von/u);
		assert.equal(report.files.length, 1);
		assert.equal(reportEmbed.image?.url, `attachment://${report.files[0]!.name}`);
		const reportChart = quickchart.charts.slice(chartsBefore).at(-1);
		assert.equal(
			reportChart?.options.plugins.title.text,
			'Bob_Ads · Server Sandbox Guild 1',
			'the report names the server',
		);
		assert.equal(reportChart?.data.labels.length, 7);
		// /stats scope:server names the server too: its name read with the bot token (GET /guilds/{id}), then cached.
		const serverStats = await stats(ADMIN, [string('scope', 'server')], { guildId, permissions: ADMIN_PERMISSIONS });
		assert.equal(serverStats.chart?.options.plugins.title.text, 'Bob_Ads · server Sandbox Guild 1');

		await remove();
		assert.notEqual(await h.bot.ctx.history.read(historyAccountId('Bob_Ads')), null, 'Bob still links Bob_Ads');
		await h.sandbox.dispatchCommand({ name: 'unlink', userId: BOB }).finalMessage();
		assert.equal(await h.bot.ctx.history.read(historyAccountId('Bob_Ads')), null);

		await linkAndSettle(bobKey, 'Bob_Ads', { userId: ADMIN, server: true, permissions: ADMIN_PERMISSIONS });
		const removed = await remove();
		assert.equal(removed.flags & EPHEMERAL, EPHEMERAL);
		assert.equal(await h.bot.ctx.history.read(historyAccountId('Bob_Ads')), null);
	});

	/**
	 * Links and waits for the snapshot the link's key check folds into the history in the background, so it
	 * cannot land after a deletion the test then checks.
	 */
	async function linkAndSettle(apiKey: string, account: string, context: Parameters<typeof linkViaModal>[2]) {
		const started = h.now();
		await linkViaModal(h, apiKey, context);
		const id = historyAccountId(account);
		await waitUntil(async () => ((await h.bot.ctx.history.read(id))?.updatedAt ?? 0) >= started);
	}

	/** Sends of a day as the bot's history holds them (the live breakdown for the last 30 days). */
	async function sendsOn(date: string): Promise<number> {
		const record = await h.bot.ctx.history.read(historyAccountId('Alice_Ads'));
		const value = record?.days[date]?.sends?.value;
		assert.ok(value !== undefined, `sends known on ${date}`);
		return value;
	}
});
