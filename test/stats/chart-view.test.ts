import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldSnapshot, type HistoryRecord } from '../../src/history/record.js';
import { addDays } from '../../src/history/utc-days.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { chartInputOf, type ChartView } from '../../src/stats/chart-view.js';
import { privateLocale, publicLocale } from '../../src/stats/public-locale.js';
import { parseStatsRequest } from '../../src/stats/request.js';
import { UserFacingError } from '../../src/errors.js';

const TODAY = '2026-11-23';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

function snapshotOn(date: string, joinsBefore: number, breakdownDays = 30): StatsSnapshot {
	return {
		sends: {
			today: 10,
			weekly: 70,
			monthly: 300,
			allTime: 5000,
			failedAllTime: 40,
			dailyBreakdown: Array.from({ length: breakdownDays }, (_, index) => ({
				date: addDays(date, index - (breakdownDays - 1)),
				sends: 10 + index,
			})),
		},
		joins: { today: 1, weekly: 7, monthly: 30, allTime: joinsBefore + 1 },
		meta: { generatedAt: `${date}T12:00:00.000Z`, user: 'Acme' },
	};
}

const view = (overrides: Partial<ChartView> = {}): ChartView => ({
	metric: 'sends',
	days: 30,
	scope: 'me',
	locale: 'en-US',
	accountName: 'Acme',
	today: TODAY,
	...overrides,
});

function record(...snapshots: StatsSnapshot[]): HistoryRecord {
	return snapshots.reduce<HistoryRecord | null>((kept, snapshot) => foldSnapshot(kept, snapshot, NOON), null)!;
}

test('days beyond the history are cut: the chart starts where the history does, and says so', () => {
	const { input, notes } = chartInputOf(record(snapshotOn(TODAY, 100)), view({ days: 90 }));
	assert.ok(input);
	assert.equal(input.points.length, 30);
	assert.equal(input.points[0]?.date, addDays(TODAY, -29));
	assert.deepEqual(input.averageSeed, [null, null, null, null, null, null], 'no week is claimed before the history');
	assert.deepEqual(notes, ['History starts on October 25, 2026: the chart begins there.']);
	assert.equal(input.labels.title, 'Acme');
	// Intl puts thin spaces around the range dash.
	assert.match(input.labels.subtitle, /^Sends per day, Oct 25\s–\sNov 23, 2026 \(UTC\)$/u);
});

test('a chart the history fully covers has no note, and its average is seeded with the days before', () => {
	const { input, notes } = chartInputOf(record(snapshotOn(TODAY, 100)), view({ days: 7 }));
	assert.deepEqual(notes, []);
	assert.equal(input?.points.length, 7);
	assert.deepEqual(input?.averageSeed, [27, 28, 29, 30, 31, 32]);
});

test('joins: before two consecutive days of snapshots the reply gives the day of the first figure', () => {
	const { input, notes } = chartInputOf(record(snapshotOn(TODAY, 100)), view({ metric: 'joins' }));
	assert.equal(input, null);
	assert.deepEqual(notes, [
		'Joins per day need snapshots on two days in a row: the first figure will be there on November 24, 2026.',
	]);
	const german = chartInputOf(record(snapshotOn(TODAY, 100)), view({ metric: 'conversion', locale: 'de' }));
	assert.match(german.notes[0] ?? '', /am 24\. November 2026/u);
});

test('joins and conversion per day once yesterday and today were sampled', () => {
	const history = record(snapshotOn(addDays(TODAY, -1), 90), snapshotOn(TODAY, 100));
	const joins = chartInputOf(history, view({ metric: 'joins', days: 7 }));
	assert.deepEqual(
		joins.input?.points.map((point) => point.value),
		[10, 1],
		'yesterday: 100 − 90 joins; today: joins so far',
	);
	const conversion = chartInputOf(history, view({ metric: 'conversion', days: 7, scope: 'server', locale: 'ja' }));
	assert.equal(conversion.input?.points[0]?.value, Math.round((10 * 100 * 100) / 38) / 100);
	assert.equal(conversion.input?.labels.title, 'Acme · サーバーのアカウント');
	assert.match(
		conversion.input?.labels.subtitle ?? '',
		/^日別の送信100件あたりの参加数、2026\/11\/22～2026\/11\/23\(UTC\)$/u,
	);
});

test('a scope:server chart names the server beside the account, and a server named like its account once', () => {
	const history = record(snapshotOn(TODAY, 100));
	const titleFor = (accountName: string, serverName: string, locale: ChartView['locale'] = 'en-US') =>
		chartInputOf(history, view({ scope: 'server', accountName, serverName, locale })).input?.labels.title;
	assert.equal(titleFor('Acme', 'My Guild'), 'Acme · server My Guild');
	assert.equal(titleFor('Pixel Community', 'Pixel Community'), 'Pixel Community · server account');
	assert.equal(titleFor('Pixel  Community', ' pixel community '), 'Pixel Community · server account');
	assert.equal(titleFor('Pixel Community', 'PIXEL COMMUNITY', 'de'), 'Pixel Community · Konto des Servers');
	assert.equal(titleFor('Pixel Community', 'Pixel Community 2'), 'Pixel Community · server Pixel Community 2');
});

test('no figure at all: no chart, a note instead', () => {
	const empty: HistoryRecord = { v: 1, updatedAt: NOON, days: {} };
	assert.deepEqual(chartInputOf(empty, view()), { input: null, notes: ['No daily figures to chart yet.'] });
});

test("public copies use the server's language, private replies the member's; others read as en-US", () => {
	assert.equal(publicLocale({ guildLocale: 'ja' }), 'ja');
	assert.equal(publicLocale({ guildLocale: null }), 'en-US');
	assert.equal(publicLocale({ guildLocale: 'en-GB' }), 'en-US');
	assert.equal(privateLocale({ locale: 'de' }), 'de');
});

test('a request outside the offered choices is refused with its catalogue key', () => {
	assert.deepEqual(parseStatsRequest({ scope: null, days: null }), { scope: 'me', days: 30, metric: 'sends' });
	assert.deepEqual(parseStatsRequest({ scope: 'server', days: 365, metric: 'conversion' }), {
		scope: 'server',
		days: 365,
		metric: 'conversion',
	});
	const refusal = (input: Parameters<typeof parseStatsRequest>[0]) => {
		try {
			parseStatsRequest(input);
		} catch (error) {
			return error instanceof UserFacingError ? error.key : 'other';
		}
		return null;
	};
	assert.equal(refusal({ scope: null, days: 60 }), 'stats.invalidDays');
	assert.equal(refusal({ scope: 'everyone', days: null }), 'stats.invalidScope');
	assert.equal(refusal({ scope: null, days: null, metric: 'clicks' }), 'stats.invalidMetric');
});

test('a repeated view of the same record gets the same input, its notes its own, and a new day a new input', () => {
	const history = record(snapshotOn(TODAY, 100));
	const first = chartInputOf(history, view({ days: 90 }));
	first.notes.push('changed by the first caller');
	const again = chartInputOf(history, view({ days: 90 }));
	assert.ok(first.input);
	assert.equal(again.input, first.input, 'the year of history is not walked again');
	assert.deepEqual(again.notes, ['History starts on October 25, 2026: the chart begins there.']);
	assert.notEqual(chartInputOf(history, view({ days: 90, locale: 'de' })).input, first.input);
	assert.notEqual(chartInputOf(history, view({ days: 30 })).input, first.input);
	const tomorrow = chartInputOf(history, view({ days: 90, today: addDays(TODAY, 1) }));
	assert.equal(tomorrow.input?.points.at(-1)?.date, addDays(TODAY, 1));
	const other = chartInputOf(record(snapshotOn(TODAY, 100)), view({ days: 90 }));
	assert.notEqual(other.input, first.input, 'another record is another chart');
	assert.deepEqual(other.input, first.input);
});
