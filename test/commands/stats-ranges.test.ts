import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { translator } from '../../src/i18n/index.js';
import { assertAcknowledgedInTime, createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';
import { barValue, seededSends, seedHistory, startFakeQuickChart } from './stats-support.js';
import type { FakeQuickChart, RecordedChart } from './stats-support.js';
import type { CommandOptionInput } from '../../sandbox/index.js';

const ALICE = '330000000000000001';
const SEEDED_DAYS = 120;
/** One clock for the bot and the bundled service, from 12:18 UTC on a fixed day: "today" cannot change mid-test. */
const CLOCK_START = Date.parse('2026-11-23T12:18:00Z');
const TODAY = '2026-11-23';

const string = (name: string, value: string) => ({ name, type: 3, value });
const integer = (name: string, value: number) => ({ name, type: 4, value });

describe('/stats and /export over any date range', () => {
	let h: Harness;
	let quickchart: FakeQuickChart;
	let aliceKey: string;
	/** Calls to the stats endpoint the bot made, counted at the client every command goes through. */
	let statsCalls = 0;

	before(async () => {
		quickchart = await startFakeQuickChart();
		const startedAt = performance.now();
		h = await startHarness({
			env: { CHART_RENDERER: 'quickchart', QUICKCHART_URL: quickchart.url },
			now: () => CLOCK_START + Math.round(performance.now() - startedAt),
		});
		aliceKey = createAccount(h, 'Alice_Ads');
		await linkViaModal(h, aliceKey, { userId: ALICE });
		assert.equal(utcDateOf(h.now()), TODAY);
		await seedHistory(h, aliceKey, SEEDED_DAYS);
		const client = h.bot.ctx.stats;
		const fetchSnapshot = client.fetchSnapshot.bind(client);
		client.fetchSnapshot = (...args: Parameters<typeof fetchSnapshot>) => {
			statsCalls += 1;
			return fetchSnapshot(...args);
		};
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
		await quickchart.close();
	});

	async function stats(options: CommandOptionInput[]) {
		const before = quickchart.charts.length;
		const message = await h.sandbox.dispatchCommand({ name: 'stats', userId: ALICE, options }).finalMessage();
		const embed = message.embeds[0] as { description: string; fields: { name: string; value: string }[] } | undefined;
		return { message, embed, chart: quickchart.charts.slice(before).at(-1) as RecordedChart | undefined };
	}

	it('registers from and to on /stats and /export, after the options they had', () => {
		const commands = h.sandbox.registeredCommands() as { name: string; options: { name: string; type: number }[] }[];
		const names = (name: string) => commands.find((c) => c.name === name)!.options.map((o) => `${o.name}:${o.type}`);
		assert.deepEqual(names('stats'), ['scope:3', 'days:4', 'share:5', 'metric:3', 'from:3', 'to:3']);
		assert.deepEqual(names('export'), ['scope:3', 'days:4', 'from:3', 'to:3']);
	});

	it('draws exactly the chosen days, names the first and last, and compares them with as many days before', async () => {
		const from = '2026-09-01';
		const to = '2026-09-30';
		const { message, embed, chart } = await stats([string('from', from), string('to', to), integer('days', 7)]);
		assert.ok(chart && embed);
		assert.equal(chart.data.labels.length, 30, 'from/to win over days');
		assert.equal(chart.data.labels[0], 'Sep 1');
		assert.equal(chart.data.labels.at(-1), 'Sep 30');
		assert.equal(barValue(chart, 0), seededSends(from));
		assert.equal(barValue(chart, 29), seededSends(to));
		assert.ok(!chart.data.datasets.some((d) => d.label === 'Today so far (partial)'), 'no day in progress');
		assert.match(chart.options.plugins.subtitle.text, /Sep 1\s–\s30, 2026/u);
		assert.ok(embed.description.includes(`(UTC; ${from} to ${to})`), embed.description);
		assert.match(embed.description, /Days shown: \*\*Sep 1\s–\s30, 2026\*\*/u);
		assert.equal(message.files[0]?.name, `stats-${from}-${to}.png`);

		const sum = (first: string, days: number) =>
			Array.from({ length: days }, (_, i) => seededSends(addDays(first, i))).reduce((a, b) => a + b, 0);
		const current = sum(from, 30);
		const previous = sum('2026-08-02', 30);
		const percent = Math.round(((current - previous) / previous) * 1000) / 10;
		const field = embed.fields.find((f) => f.name.endsWith('against as many days before'));
		assert.ok(field, JSON.stringify(embed.fields.map((f) => f.name)));
		assert.match(field.name, /^Sep 1\s–\s30, 2026 against as many days before$/u);
		const sign = percent > 0 ? '▲ +' : percent < 0 ? '▼ −' : '■ ±';
		assert.ok(
			field.value.startsWith(`Sends: **${current.toLocaleString('en-US')}** ${sign}${Math.abs(percent).toFixed(1)} %`),
			field.value,
		);
		assert.ok(!embed.fields.some((f) => f.name === '7 full days to yesterday'), 'the range’s comparison replaces it');
	});

	it('`to` alone ends the chart there, `days` before it; a one-day range is one bar', async () => {
		const { chart } = await stats([string('to', '2026-10-31'), integer('days', 7)]);
		assert.deepEqual(chart?.data.labels, ['Oct 25', 'Oct 26', 'Oct 27', 'Oct 28', 'Oct 29', 'Oct 30', 'Oct 31']);
		const one = await stats([string('from', '2026-10-02'), string('to', '2026-10-02')]);
		assert.deepEqual(one.chart?.data.labels, ['Oct 2']);
		assert.equal(barValue(one.chart!, 0), seededSends('2026-10-02'));
	});

	it('a 365-day range starts where the history does and says so', async () => {
		const { chart, embed } = await stats([string('from', addDays(TODAY, -364)), string('to', TODAY)]);
		assert.equal(chart?.data.labels.length, SEEDED_DAYS + 30);
		assert.match(embed!.description, /History starts on/u);
	});

	it('a range wholly before the history says from when the bot knows figures', async () => {
		const { embed, chart, message } = await stats([string('from', '2026-01-01'), string('to', '2026-01-31')]);
		assert.equal(chart, undefined);
		assert.equal(message.files.length, 0);
		assert.match(embed!.description, /The bot knows figures from .+ on; the days before it are unknown\./u);
	});

	it('refuses a bad range with the reason, in the member’s language, calling nothing', async () => {
		const cases: [CommandOptionInput[], RegExp][] = [
			[
				[string('from', '2026-11-10'), string('to', '2026-11-01')],
				/^`from` \(2026-11-10\) is after `to` \(2026-11-01\)/u,
			],
			[[string('to', '2026-11-24')], /^`to` is 2026-11-24, after today \(2026-11-23, UTC\)/u],
			[[string('from', '2026-02-30')], /^`from` must be a real day written YYYY-MM-DD/u],
			[[string('from', '2027-02-29'), string('to', TODAY)], /^`from` must be a real day/u],
			[[string('from', addDays(TODAY, -365))], /^That range has 366 days; at most 365/u],
		];
		for (const [options, reason] of cases) {
			const calls = statsCalls;
			const charts = quickchart.charts.length;
			const reply = await h.sandbox.dispatchCommand({ name: 'stats', userId: ALICE, options }).finalMessage();
			assert.ok(reply.isEphemeral);
			assert.match(reply.content, reason);
			assert.equal(reply.embeds.length, 0);
			assert.equal(statsCalls, calls, 'no stats API call');
			assert.equal(quickchart.charts.length, charts, 'no chart');
			const exported = await h.sandbox.dispatchCommand({ name: 'export', userId: ALICE, options }).finalMessage();
			assert.match(exported.content, reason);
			assert.equal(exported.files.length, 0);
			assert.equal(statsCalls, calls, 'no stats API call for /export either');
		}
		const ja = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: ALICE, locale: 'ja', options: [string('to', '2026-11-24')] })
			.finalMessage();
		assert.equal(ja.content, translator('ja')('range.future', { option: 'to', date: '2026-11-24', today: TODAY }));
	});

	it('/export writes the chosen days and names them; a range before the history says from when', async () => {
		const message = await h.sandbox
			.dispatchCommand({
				name: 'export',
				userId: ALICE,
				options: [string('from', '2026-10-01'), string('to', '2026-10-10')],
			})
			.finalMessage();
		assert.equal(message.files[0]?.name, 'adstats-2026-10-01-2026-10-10.csv');
		assert.match(message.content, /October 1, 2026 to October 10, 2026/u);
		const rows = message.files[0]!.bytes.toString('utf8').split('\r\n').slice(1, -1);
		assert.equal(rows.length, 10);
		assert.ok(rows[0]!.startsWith(`2026-10-01,${seededSends('2026-10-01')},`));
		const early = await h.sandbox
			.dispatchCommand({ name: 'export', userId: ALICE, options: [string('from', '2026-01-01'), string('to', TODAY)] })
			.finalMessage();
		assert.match(early.content, /The bot knows figures from/u);
		assert.equal(early.files[0]?.name, `adstats-2026-01-01-${TODAY}.csv`);
		// Wholly before the history: no file, and the reply still names the days asked for.
		const before = await h.sandbox
			.dispatchCommand({
				name: 'export',
				userId: ALICE,
				options: [string('from', '2025-01-01'), string('to', '2025-01-31')],
			})
			.finalMessage();
		assert.equal(before.files.length, 0);
		assert.match(before.content, /no daily figures to export/u);
		assert.ok(before.content.includes('(UTC; 2025-01-01 to 2025-01-31)'), before.content);
		assert.match(before.content, /The bot knows figures from/u);
	});

	it('the share button posts the same range', async () => {
		const from = '2026-09-01';
		const to = '2026-09-07';
		const privateReply = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: ALICE, options: [string('from', from), string('to', to)] })
			.finalMessage();
		const buttonId = `stats:share:${ALICE}:me:30:sends:${from}:${to}`;
		assert.match(JSON.stringify(privateReply.components), new RegExp(buttonId));
		const channelId = h.sandbox.guilds[0]!.defaultChannelId;
		const before = h.sandbox.channelMessages(channelId).length;
		const press = h.sandbox.dispatchButton({ customId: buttonId, userId: ALICE, messageId: privateReply.id });
		await assertAcknowledgedInTime(press);
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300) && x.edits.some((e) => e.status < 300));
		const [posted] = h.sandbox.channelMessages(channelId).slice(before);
		const embed = posted?.embeds[0] as { description: string } | undefined;
		assert.ok(embed?.description.includes(`(UTC; ${from} to ${to})`), embed?.description);
	});
});
