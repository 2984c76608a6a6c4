import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UserFacingError } from '../../src/errors.js';
import { compareRange } from '../../src/history/compare.js';
import { buildExport } from '../../src/history/export-csv.js';
import { foldSnapshot, type HistoryRecord } from '../../src/history/record.js';
import { addDays } from '../../src/history/utc-days.js';
import { buildChartConfig } from '../../src/render/chart.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { chartFileName, chartInputOf, type ChartView } from '../../src/stats/chart-view.js';
import {
	checkRangeBounds,
	completeRange,
	isRealUtcDay,
	MAX_RANGE_DAYS,
	parseDateRange,
	rangeLength,
} from '../../src/stats/date-range.js';
import { parseStatsRequest } from '../../src/stats/request.js';

const TODAY = '2026-11-23';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

/** The key and variables of the refusal a range gets, or null when it is accepted. */
function refusal(input: { from?: string | null; to?: string | null }, today = TODAY) {
	try {
		checkRangeBounds(input, today);
	} catch (error) {
		if (error instanceof UserFacingError) return { key: error.key, vars: error.vars };
		throw error;
	}
	return null;
}

describe('one date range for the commands and the dashboard', () => {
	it('knows which days the calendar has, 29 February in leap years only', () => {
		assert.equal(isRealUtcDay('2028-02-29'), true);
		assert.equal(isRealUtcDay('2027-02-29'), false);
		assert.equal(isRealUtcDay('2026-02-30'), false);
		assert.equal(isRealUtcDay('2026-04-31'), false);
		assert.equal(isRealUtcDay('2026-13-01'), false);
		assert.equal(isRealUtcDay('2026-1-5'), false);
		assert.equal(isRealUtcDay('26-01-05'), false);
		assert.equal(isRealUtcDay('2026-01-05T00:00'), false);
		assert.equal(isRealUtcDay('yesterday'), false);
		assert.equal(isRealUtcDay('2026-12-31'), true);
	});

	it('accepts 29 February 2028 in a leap year, refuses 29 February 2027', () => {
		const leapToday = '2028-03-10';
		assert.deepEqual(parseDateRange({ from: '2028-02-29', to: '2028-02-29' }, { days: 30, today: leapToday }), {
			from: '2028-02-29',
			to: '2028-02-29',
		});
		assert.deepEqual(refusal({ from: '2027-02-29' }, leapToday), { key: 'range.malformed', vars: { option: 'from' } });
	});

	it('a 365-day range is accepted, a 366-day one refused with its length', () => {
		const year = parseDateRange({ from: '2025-11-24', to: TODAY }, { days: 30, today: TODAY })!;
		assert.equal(rangeLength(year), MAX_RANGE_DAYS);
		assert.deepEqual(refusal({ from: '2025-11-23', to: TODAY }), {
			key: 'range.tooLong',
			vars: { days: 366, max: 365 },
		});
		// `from` alone runs to today: the same limit.
		assert.deepEqual(refusal({ from: '2025-11-23' }), { key: 'range.tooLong', vars: { days: 366, max: 365 } });
	});

	it('a one-day range is one day, today included', () => {
		assert.deepEqual(parseDateRange({ from: TODAY, to: TODAY }, { days: 30, today: TODAY }), {
			from: TODAY,
			to: TODAY,
		});
		assert.equal(rangeLength({ from: '2026-03-01', to: '2026-03-01' }), 1);
	});

	it('refuses a reversed range, a day after today and a malformed day, naming the option', () => {
		assert.deepEqual(refusal({ from: '2026-11-10', to: '2026-11-01' }), {
			key: 'range.reversed',
			vars: { from: '2026-11-10', to: '2026-11-01' },
		});
		assert.deepEqual(refusal({ to: '2026-11-24' }), {
			key: 'range.future',
			vars: { option: 'to', date: '2026-11-24', today: TODAY },
		});
		assert.deepEqual(refusal({ from: '2027-01-01' }), {
			key: 'range.future',
			vars: { option: 'from', date: '2027-01-01', today: TODAY },
		});
		assert.deepEqual(refusal({ from: '2026-02-30' }), { key: 'range.malformed', vars: { option: 'from' } });
		assert.deepEqual(refusal({ to: '23/11/2026' }), { key: 'range.malformed', vars: { option: 'to' } });
		// The member's text is never echoed back.
		assert.deepEqual(refusal({ to: '@everyone' }), { key: 'range.malformed', vars: { option: 'to' } });
	});

	it('fills what is left out: `to` is today, `from` is `to` minus `days` + 1; blanks count as absent', () => {
		assert.equal(checkRangeBounds({ from: null, to: null }, TODAY), null);
		assert.equal(checkRangeBounds({ from: '', to: '  ' }, TODAY), null);
		assert.deepEqual(parseDateRange({ to: '2026-03-31' }, { days: 7, today: TODAY }), {
			from: '2026-03-25',
			to: '2026-03-31',
		});
		assert.deepEqual(parseDateRange({ from: '2026-11-01' }, { days: 7, today: TODAY }), {
			from: '2026-11-01',
			to: TODAY,
		});
		assert.deepEqual(completeRange({ from: null, to: '2026-01-31' }, 365), { from: '2025-02-01', to: '2026-01-31' });
		assert.deepEqual(parseDateRange({ from: ' 2026-11-01 ' }, { days: 7, today: TODAY }), {
			from: '2026-11-01',
			to: TODAY,
		});
	});

	it('from/to win over days in a stats request, with the server default filling `from`', () => {
		const request = parseStatsRequest(
			{ scope: 'me', days: null, to: '2026-06-30', today: TODAY },
			{ defaultDays: 14, defaultMetric: 'joins' },
		);
		assert.deepEqual(request, {
			scope: 'me',
			days: 14,
			metric: 'joins',
			range: { from: '2026-06-17', to: '2026-06-30' },
		});
		const explicit = parseStatsRequest({ scope: 'me', days: 7, from: '2026-01-01', to: '2026-03-31', today: TODAY });
		assert.deepEqual(explicit.range, { from: '2026-01-01', to: '2026-03-31' });
		assert.equal(parseStatsRequest({ scope: 'me', days: 7, today: TODAY }).range, undefined);
		assert.throws(
			() => parseStatsRequest({ scope: 'me', days: 7, from: '2026-03-31', to: '2026-01-01', today: TODAY }),
			(error) => error instanceof UserFacingError && error.key === 'range.reversed',
		);
	});
});

/** One snapshot a day for `days` days ending today, each carrying 30 days of sends (10 + the day of month). */
function historyOf(days: number): HistoryRecord {
	let record: HistoryRecord | null = null;
	for (let daysAgo = days - 1; daysAgo >= 0; daysAgo -= 1) {
		const date = addDays(TODAY, -daysAgo);
		record = foldSnapshot(record, snapshotOn(date), NOON);
	}
	return record!;
}

function snapshotOn(date: string): StatsSnapshot {
	return {
		sends: {
			today: 10,
			weekly: 70,
			monthly: 300,
			allTime: 5000,
			failedAllTime: 40,
			dailyBreakdown: Array.from({ length: 30 }, (_, index) => {
				const day = addDays(date, index - 29);
				return { date: day, sends: 10 + Number(day.slice(8, 10)) };
			}),
		},
		joins: { today: 1, weekly: 7, monthly: 30, allTime: 1000 },
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

describe('a range drawn, compared and exported', () => {
	// History from 2026-05-29 (the first snapshot's breakdown reaches 29 days back from 2026-06-26).
	const record = historyOf(150);
	const firstKnown = addDays(TODAY, -149 - 29);

	it('the chart runs from `from` to `to`, every day complete when the range ends before today', () => {
		const range = { from: '2026-09-01', to: '2026-09-30' };
		const { input, notes } = chartInputOf(record, view({ range }));
		assert.ok(input);
		assert.deepEqual(notes, []);
		assert.equal(input.points.length, 30);
		assert.equal(input.points[0]?.date, '2026-09-01');
		assert.equal(input.points.at(-1)?.date, '2026-09-30');
		assert.equal(input.points.at(-1)?.value, 40);
		assert.match(input.labels.subtitle, /Sep 1\s–\s30, 2026/u);
		assert.equal(input.lastIsPartial, false);
		const labels = buildChartConfig(input).config.data.datasets.map((dataset) => dataset.label);
		assert.ok(!labels.includes(input.labels.partialToday), 'no day in progress is named');
		assert.equal(chartFileName(30, 'sends', range), 'stats-2026-09-01-2026-09-30.png');
	});

	it('a range ending today keeps today as the partial day', () => {
		const { input } = chartInputOf(record, view({ range: { from: '2026-11-20', to: TODAY } }));
		assert.equal(input?.points.length, 4);
		assert.equal(input?.lastIsPartial, undefined);
	});

	it('a one-day range on 29 February is one bar', () => {
		const leapToday = '2028-03-02';
		let leap: HistoryRecord | null = null;
		leap = foldSnapshot(leap, snapshotOn(leapToday), Date.parse(`${leapToday}T12:00:00Z`));
		const range = { from: '2028-02-29', to: '2028-02-29' };
		const { input } = chartInputOf(leap, view({ range, today: leapToday }));
		assert.deepEqual(input?.points, [{ date: '2028-02-29', value: 39 }]);
	});

	it('a 365-day range reaching before the history starts where it does, and says from when', () => {
		const range = { from: addDays(TODAY, -364), to: TODAY };
		const { input, notes } = chartInputOf(record, view({ range }));
		assert.equal(input?.points[0]?.date, firstKnown);
		assert.equal(input?.points.length, 178 + 1);
		assert.equal(notes.length, 1);
		assert.match(notes[0]!, /^History starts on May 29, 2026/u);
	});

	it('a range wholly before the history draws nothing and says from when the bot knows figures', () => {
		const { input, notes } = chartInputOf(record, view({ range: { from: '2026-01-01', to: '2026-01-31' } }));
		assert.equal(input, null);
		assert.deepEqual(notes, ['The bot knows figures from May 29, 2026 on; the days before it are unknown.']);
	});

	it('compares the range’s complete days with as many days just before', () => {
		const compared = compareRange(record, { from: '2026-09-01', to: '2026-09-10' }, TODAY)!;
		const sendsOf = (first: number, last: number) => {
			let total = 0;
			for (let day = first; day <= last; day += 1) total += 10 + day;
			return total;
		};
		assert.equal(compared.sends.from, '2026-09-01');
		assert.equal(compared.sends.to, '2026-09-10');
		assert.equal(compared.sends.current, sendsOf(1, 10));
		// The 10 days before: 22 to 31 August.
		assert.equal(compared.sends.previous, sendsOf(22, 31));
		assert.deepEqual(compared.sends.change, {
			kind: 'percent',
			value: ((sendsOf(1, 10) - sendsOf(22, 31)) / sendsOf(22, 31)) * 100,
		});
		// A range ending today compares its days up to yesterday.
		const toToday = compareRange(record, { from: '2026-11-16', to: TODAY }, TODAY)!;
		assert.equal(toToday.sends.to, '2026-11-22');
		assert.equal(toToday.sends.current, sendsOf(16, 22));
		assert.equal(toToday.sends.previous, sendsOf(9, 15));
		// Today alone has no complete day to compare.
		assert.equal(compareRange(record, { from: TODAY, to: TODAY }, TODAY), null);
		// Days before the history are unknown: no percentage from them.
		assert.deepEqual(compareRange(record, { from: firstKnown, to: addDays(firstKnown, 9) }, TODAY)!.sends.change, {
			kind: 'unknown',
		});
	});

	it('the CSV rows run from `from` to `to`', () => {
		const file = buildExport(record, { days: 3, today: TODAY, to: '2026-10-02' });
		assert.equal(file.fileName, 'adstats-2026-09-30-2026-10-02.csv');
		// Joins and failed sends stand still in these snapshots: 0 a day, known.
		assert.equal(
			file.csv,
			'date,sends,joins,failed_sends\r\n2026-09-30,40,0,0\r\n2026-10-01,11,0,0\r\n2026-10-02,12,0,0\r\n',
		);
	});
});
