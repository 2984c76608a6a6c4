import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildChartSeries } from '../../src/history/chart-series.js';
import { addDays } from '../../src/history/utc-days.js';
import { buildExport, buildExportCsv, exportFileName } from '../../src/history/export-csv.js';
import { foldSnapshot } from '../../src/history/record.js';
import type { HistoryRecord } from '../../src/history/record.js';
import { dailySeries } from '../../src/history/daily-figures.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { joinsSnapshot, makeSnapshot } from './snapshots.js';

const TODAY = '2026-11-23';
const NOW = Date.parse(`${TODAY}T12:00:00Z`);

const foldAll = (snapshots: StatsSnapshot[]): HistoryRecord | null =>
	snapshots.reduce<HistoryRecord | null>((record, snapshot) => foldSnapshot(record, snapshot, NOW), null);

/** `days` consecutive daily snapshots ending today at 06:00: 10 joins and 100 sends a day, 0 before the first. */
function steadyHistory(days: number): HistoryRecord | null {
	const snapshots: StatsSnapshot[] = [];
	for (let back = days - 1; back >= 0; back -= 1) {
		const date = addDays(TODAY, -back);
		const index = days - 1 - back;
		snapshots.push(joinsSnapshot(`${date}T06:00:00Z`, index * 10, 4, index));
		snapshots.push(makeSnapshot({ generatedAt: `${date}T06:00:00Z`, breakdown: { [date]: 100 } }));
	}
	return foldAll(snapshots);
}

test('a chart of N days has N points ending today and the 6 days before it for the average', () => {
	for (const days of [7, 14, 30, 90, 180, 365]) {
		const chart = buildChartSeries(steadyHistory(3), { days, metric: 'sends', today: TODAY });
		assert.equal(chart.points.length, days);
		assert.equal(chart.points.at(-1)?.date, TODAY);
		assert.equal(chart.leadIn.length, 6);
		assert.equal(chart.leadIn.at(-1)?.date, addDays(TODAY, -days));
	}
});

test('points are null where unknown, and the chart says since when the history has figures', () => {
	const chart = buildChartSeries(steadyHistory(3), { days: 7, metric: 'sends', today: TODAY });
	assert.deepEqual(
		chart.points.map((point) => point.value),
		[null, null, null, null, 100, 100, 100],
	);
	assert.equal(chart.firstKnownDate, '2026-11-21');
	assert.equal(chart.firstFigureDate, null);
});

test('joins and conversion per day, with the first day that has a figure', () => {
	const record = steadyHistory(3);
	const joins = buildChartSeries(record, { days: 7, metric: 'joins', today: TODAY });
	assert.deepEqual(
		joins.points.slice(-3).map((point) => point.value),
		[10, 10, 4],
	);
	assert.equal(joins.firstKnownDate, '2026-11-21');
	const conversion = buildChartSeries(record, { days: 7, metric: 'conversion', today: TODAY });
	assert.deepEqual(
		conversion.points.slice(-3).map((point) => point.value),
		[10, 10, 4],
	);
	assert.equal(conversion.firstFigureDate, null);
});

test('with too little history the joins chart says from which day the first figure exists', () => {
	const firstFigure = (record: HistoryRecord | null) =>
		buildChartSeries(record, { days: 7, metric: 'joins', today: TODAY }).firstFigureDate;
	assert.equal(firstFigure(null), '2026-11-24', 'first snapshot today, completed by one tomorrow');
	assert.equal(firstFigure(steadyHistory(1)), '2026-11-24', 'a snapshot today only: today is complete tomorrow');
	const yesterdayOnly = foldAll([joinsSnapshot('2026-11-22T20:00:00Z', 5, 1)]);
	assert.equal(firstFigure(yesterdayOnly), TODAY, "today's first snapshot completes yesterday");
	const twoDaysAgo = foldAll([joinsSnapshot('2026-11-21T20:00:00Z', 5, 1)]);
	assert.equal(firstFigure(twoDaysAgo), '2026-11-24');
	assert.equal(firstFigure(steadyHistory(2)), null);
	// And it is right: once the next day's snapshot is folded, that date has a figure.
	const next = foldSnapshot(steadyHistory(1), joinsSnapshot('2026-11-24T00:10:00Z', 10, 0), NOW + 86_400_000);
	const figures = dailySeries(next, { from: TODAY, to: TODAY, today: '2026-11-24' });
	assert.equal(figures[0]?.joins, 10);
	assert.equal(buildChartSeries(steadyHistory(1), { days: 7, metric: 'sends', today: TODAY }).firstFigureDate, null);
});

test('the CSV has the fixed header, CRLF rows oldest first and empty cells where unknown', () => {
	const { fileName, csv } = buildExport(steadyHistory(2), { days: 3, today: TODAY });
	assert.equal(fileName, 'adstats-2026-11-21-2026-11-23.csv');
	assert.equal(csv, 'date,sends,joins,failed_sends\r\n2026-11-21,,,\r\n2026-11-22,100,10,1\r\n2026-11-23,100,4,\r\n');
});

test('CSV fields that need it are quoted as RFC 4180 says', () => {
	const csv = buildExportCsv([{ date: 'a,"b"', sends: 1, joins: null, failedSends: 0, failedApproximate: false }]);
	assert.equal(csv.split('\r\n')[1], '"a,""b""",1,,0');
	assert.equal(exportFileName('2026-01-01', '2026-12-31'), 'adstats-2026-01-01-2026-12-31.csv');
});
