import assert from 'node:assert/strict';
import { translator } from '../../src/i18n/index.js';
import { after, before, describe, it } from 'node:test';
import { createAccount, EPHEMERAL, linkViaModal, startHarness, type Harness } from '../app/harness.js';
import { startFakeQuickChart, type FakeQuickChart, type RecordedChart } from './stats-support.js';

const DIETER = '330000000000000001';
const HANAKO = '330000000000000002';

interface Embed {
	title: string;
	description: string;
	fields: { name: string; value: string }[];
	footer: { text: string };
}

function embedOf(embeds: readonly unknown[]): Embed {
	assert.equal(embeds.length, 1);
	return embeds[0] as Embed;
}

describe("/stats speaks the reader's language: private replies the member's, public copies the server's", () => {
	let h: Harness;
	let quickchart: FakeQuickChart;

	before(async () => {
		quickchart = await startFakeQuickChart();
		h = await startHarness({ env: { CHART_RENDERER: 'quickchart', QUICKCHART_URL: quickchart.url } });
		const key = createAccount(h, 'Sprach_Konto');
		await linkViaModal(h, key, { userId: DIETER });
		await linkViaModal(h, key, { userId: HANAKO });
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
		await quickchart.close();
	});

	function lastChart(): RecordedChart {
		const chart = quickchart.charts.at(-1);
		assert.ok(chart, 'a chart was drawn');
		return chart;
	}

	it('a German member gets a German embed, chart and share button, with German numbers', async () => {
		const message = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: DIETER, locale: 'de', guildLocale: 'ja' })
			.finalMessage();
		assert.ok(message.isEphemeral);
		const embed = embedOf(message.embeds);
		assert.equal(embed.title, 'Werbestatistik');
		assert.deepEqual(
			embed.fields.map((f) => f.name),
			[
				'Heute bisher',
				'Letzte 7 Tage',
				'Letzte 30 Tage',
				'Insgesamt',
				'Fehlgeschlagene Sendungen (insgesamt)',
				'Beitritte je 100 Sendungen',
				'7 volle Tage bis gestern',
				'30 volle Tage bis gestern',
			],
		);
		assert.match(embed.fields[3]!.value, /^Sendungen: \*\*\d{1,3}(\.\d{3})*\*\*\nBeitritte: /u, 'German grouping');
		assert.match(embed.footer.text, /Tage sind UTC-Kalendertage/u);
		assert.match(embed.description, /^Konto: \*\*Sprach\\_Konto\*\*/u);
		const chart = lastChart();
		assert.match(chart.options.plugins.subtitle.text, /^Sendungen pro Tag, .*\d{4}.* \(UTC\)$/u);
		assert.equal(chart.options.scales.y.title.text, 'Sendungen');
		assert.deepEqual(
			chart.data.datasets.map((d) => d.label),
			['Sendungen', 'Heute bisher', 'Durchschnitt über 7 Tage'],
		);
		assert.match(JSON.stringify(message.components), /Im Kanal teilen/u);
	});

	it('a Japanese member gets a Japanese embed and chart', async () => {
		const message = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: HANAKO, locale: 'ja', guildLocale: 'de' })
			.finalMessage();
		const embed = embedOf(message.embeds);
		assert.equal(embed.title, '広告の統計');
		assert.equal(embed.fields[0]!.name, '今日(現時点)');
		assert.match(embed.fields[0]!.value, /^送信数: \*\*/u);
		assert.match(lastChart().options.plugins.subtitle.text, /^日別の送信数、.*\d{4}.*\(UTC\)$/u);
		assert.match(JSON.stringify(message.components), /チャンネルで共有/u);
	});

	it("share:true posts in the server's language and names who shared it; the private note stays the member's", async () => {
		const handle = h.sandbox.dispatchCommand({
			name: 'stats',
			userId: DIETER,
			locale: 'de',
			guildLocale: 'ja',
			options: [{ name: 'share', type: 5, value: true }],
		});
		await handle.waitFor((x) => x.followUps.some((f) => f.status < 300));
		const publicCopy = handle.followUps.find((f) => f.status < 300)!;
		assert.equal(publicCopy.flags & EPHEMERAL, 0);
		const embed = (publicCopy.data as { embeds: Embed[] }).embeds[0]!;
		assert.equal(embed.title, '広告の統計');
		assert.equal(embed.description.split('\n').at(-1), `共有者: <@${DIETER}>`);
		assert.match(lastChart().options.plugins.subtitle.text, /^日別の送信数/u);
		assert.equal((await handle.finalMessage()).content, 'Im Kanal gepostet.');
	});

	it('the Share button posts a Japanese copy for a German member in a Japanese server', async () => {
		const buttonId = `stats:share:${DIETER}:me:7:sends`;
		const privateReply = await h.sandbox
			.dispatchCommand({
				name: 'stats',
				userId: DIETER,
				locale: 'de',
				guildLocale: 'ja',
				options: [{ name: 'days', type: 4, value: 7 }],
			})
			.finalMessage();
		assert.match(JSON.stringify(privateReply.components), new RegExp(buttonId, 'u'));
		assert.equal(embedOf(privateReply.embeds).title, 'Werbestatistik');
		const channelId = h.sandbox.guilds[0]!.defaultChannelId;
		const before = h.sandbox.channelMessages(channelId).length;
		const press = h.sandbox.dispatchButton({
			customId: buttonId,
			userId: DIETER,
			locale: 'de',
			guildLocale: 'ja',
			messageId: privateReply.id,
		});
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300) && x.edits.some((e) => e.status < 300));
		const posted = h.sandbox.channelMessages(channelId).slice(before);
		assert.equal(posted.length, 1);
		const embed = embedOf(posted[0]!.embeds);
		assert.equal(embed.fields[1]!.name, '過去7日間');
		assert.match(embed.description, new RegExp(`共有者: <@${DIETER}>`, 'u'));
		assert.equal(lastChart().data.labels.length, 7);
	});

	it("errors follow the member's language too", async () => {
		const message = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: '330000000000000009', locale: 'ja', guildLocale: 'de' })
			.finalMessage();
		assert.match(message.content, /^APIキーがまだ連携されていません。/u);
		const exported = await h.sandbox
			.dispatchCommand({ name: 'export', userId: DIETER, locale: 'de', options: [{ name: 'days', type: 4, value: 7 }] })
			.finalMessage();
		assert.match(exported.content, /^Tageswerte von \*\*Sprach\\_Konto\*\*/u);
		assert.match(
			exported.files[0]!.bytes.toString('utf8'),
			/^date,sends,joins,failed_sends\r\n/u,
			'the header stays English',
		);
	});

	it('/help answers in German and in Japanese, with the command names untouched', async () => {
		for (const [locale, expected] of [
			['de', translator('de')('help.text')],
			['ja', translator('ja')('help.text')],
		] as const) {
			const message = await h.sandbox.dispatchCommand({ name: 'help', userId: DIETER, locale }).finalMessage();
			assert.ok(message.isEphemeral);
			assert.equal(message.content, expected);
			assert.notEqual(message.content, translator('en-US')('help.text'));
			assert.match(message.content, /`\/stats/u, 'commands keep their fixed names');
		}
	});

	it('a Latin-American Spanish member (es-419) gets the Spanish embed and chart, not English', async () => {
		const message = await h.sandbox
			.dispatchCommand({ name: 'stats', userId: HANAKO, locale: 'es-419', guildLocale: 'de' })
			.finalMessage();
		const embed = embedOf(message.embeds);
		assert.equal(embed.title, translator('es-ES')('embed.titleNoAccount'));
		assert.equal(embed.fields[0]!.name, 'Hoy hasta ahora');
		assert.match(embed.fields[0]!.value, /^Envíos: \*\*/u);
		assert.match(lastChart().options.plugins.subtitle.text, /^Envíos por día, .*\d{4}.* \(UTC\)$/u);
		assert.match(JSON.stringify(message.components), new RegExp(translator('es-ES')('buttons.share'), 'u'));
	});
});
