import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { historyAccountId } from '../../src/history/account-id.js';
import { foldSnapshot } from '../../src/history/record.js';
import type { HistoryRecord } from '../../src/history/record.js';
import { dailySeries } from '../../src/history/daily-figures.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { joinsSnapshot, makeSnapshot } from './snapshots.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const TODAY = '2026-11-23';

const foldAll = (snapshots: StatsSnapshot[], now = NOW, historyDays?: number): HistoryRecord =>
	snapshots.reduce<HistoryRecord | null>(
		(record, snapshot) => foldSnapshot(record, snapshot, now, { historyDays }),
		null,
	) as HistoryRecord;

const series = (record: HistoryRecord, from: string, to = TODAY) => dailySeries(record, { from, to, today: TODAY });

test('the account id is a salted SHA-256 of the account name, the same for every key of that account', () => {
	const id = historyAccountId('acme');
	assert.match(id, /^[0-9a-f]{64}$/);
	assert.equal(historyAccountId('acme'), id);
	assert.notEqual(historyAccountId('acme2'), id);
	assert.notEqual(id, createHash('sha256').update('acme').digest('hex'), 'a bare hash of the name is not the id');
});

test('sends per day come from the breakdown, and for one date the later generated_at wins in any fold order', () => {
	const early = makeSnapshot({ generatedAt: '2026-11-22T10:00:00Z', breakdown: { '2026-11-21': 5, '2026-11-22': 7 } });
	const late = makeSnapshot({ generatedAt: '2026-11-22T23:00:00Z', breakdown: { '2026-11-22': 40 } });
	for (const order of [
		[early, late],
		[late, early],
	]) {
		const rows = series(foldAll(order), '2026-11-21', '2026-11-22');
		assert.deepEqual(
			rows.map((row) => row.sends),
			[5, 40],
		);
	}
});

test('joins on a day are exact from one snapshot that day and one the next', () => {
	const record = foldAll([
		joinsSnapshot('2026-11-20T09:00:00Z', 1000, 12),
		joinsSnapshot('2026-11-21T17:30:00Z', 1050, 30),
		joinsSnapshot('2026-11-22T03:00:00Z', 1100, 2),
	]);
	const rows = series(record, '2026-11-19', '2026-11-22');
	assert.deepEqual(
		rows.map((row) => row.joins),
		[null, 50, 50, null],
		'the 19th has no snapshot and the 22nd none after it',
	);
});

test("today's joins are the day's latest joins.today, partial like today's sends", () => {
	const record = foldAll([
		joinsSnapshot('2026-11-23T01:00:00Z', 500, 3),
		joinsSnapshot('2026-11-23T11:00:00Z', 500, 9),
		joinsSnapshot('2026-11-23T06:00:00Z', 500, 6),
	]);
	assert.equal(series(record, TODAY)[0]?.joins, 9);
});

test('folding the same snapshots in any order, or twice, gives the same days', () => {
	const snapshots = [
		joinsSnapshot('2026-11-21T05:00:00Z', 100, 1, 10),
		joinsSnapshot('2026-11-21T20:00:00Z', 101, 9, 14),
		joinsSnapshot('2026-11-22T05:00:00Z', 110, 4, 20),
		makeSnapshot({ generatedAt: '2026-11-22T06:00:00Z', breakdown: { '2026-11-21': 3, '2026-11-22': 1 } }),
		makeSnapshot({ generatedAt: '2026-11-22T18:00:00Z', breakdown: { '2026-11-22': 8 } }),
	];
	const reference = foldAll(snapshots).days;
	const permutations = [
		[4, 3, 2, 1, 0],
		[2, 0, 4, 1, 3],
		[1, 1, 3, 0, 2, 4, 4],
	];
	for (const order of permutations) {
		assert.deepEqual(foldAll(order.map((index) => snapshots[index] as StatsSnapshot)).days, reference);
	}
	// The earliest reading of the day is the one nearest its start: failed on the 21st is 20 − 10.
	assert.equal(series(foldAll(snapshots), '2026-11-21', '2026-11-21')[0]?.failedSends, 10);
	assert.equal(series(foldAll(snapshots), '2026-11-21', '2026-11-21')[0]?.joins, 10);
});

test('days without data stay unknown, never 0', () => {
	const record = foldAll([
		joinsSnapshot('2026-11-10T08:00:00Z', 10, 0, 0),
		joinsSnapshot('2026-11-11T08:00:00Z', 15, 0, 1),
		joinsSnapshot('2026-11-14T08:00:00Z', 40, 0, 3),
	]);
	const rows = series(record, '2026-11-10', '2026-11-14');
	assert.deepEqual(
		rows.map((row) => [row.sends, row.joins, row.failedSends]),
		[
			[null, 5, 1],
			[null, null, null],
			[null, null, null],
			[null, null, null],
			[null, null, null],
		],
	);
});

test('failed sends are flagged approximate when the two readings are not about a day apart', () => {
	const record = foldAll([
		joinsSnapshot('2026-11-20T08:00:00Z', 0, 0, 100),
		joinsSnapshot('2026-11-21T08:30:00Z', 0, 0, 110),
		joinsSnapshot('2026-11-22T20:00:00Z', 0, 0, 130),
	]);
	const rows = series(record, '2026-11-20', '2026-11-21');
	assert.deepEqual(
		rows.map((row) => [row.failedSends, row.failedApproximate]),
		[
			[10, false],
			[20, true],
		],
	);
});

test('totals that went back read as unknown rather than negative', () => {
	const record = foldAll([
		joinsSnapshot('2026-11-20T08:00:00Z', 500, 0, 50),
		joinsSnapshot('2026-11-21T08:00:00Z', 20, 0, 5),
	]);
	const [row] = series(record, '2026-11-20', '2026-11-20');
	assert.equal(row?.joins, null);
	assert.equal(row?.failedSends, null);
});

test('a snapshot without generated_at is dated by when it was received', () => {
	const snapshot = makeSnapshot({ generatedAt: null, joinsAllTime: 10, joinsToday: 2 });
	const record = foldSnapshot(null, snapshot, NOW, { receivedAt: Date.parse('2026-11-22T23:59:00Z') });
	assert.deepEqual(Object.keys(record.days), ['2026-11-22']);
	assert.equal(record.days['2026-11-22']?.joinsBefore?.value, 8);
});

test('a generated_at with an offset is placed on its UTC day', () => {
	const record = foldAll([makeSnapshot({ generatedAt: '2026-11-23T01:30:00+02:00', joinsAllTime: 4, joinsToday: 1 })]);
	assert.deepEqual(Object.keys(record.days), ['2026-11-22']);
});

test('only the last HISTORY_DAYS days (and tomorrow) are kept', () => {
	const breakdown: Record<string, number> = {};
	for (let day = 1; day <= 23; day += 1) breakdown[`2026-11-${String(day).padStart(2, '0')}`] = day;
	breakdown['2026-11-24'] = 24;
	breakdown['2026-11-25'] = 25;
	const record = foldAll([makeSnapshot({ generatedAt: '2026-11-23T10:00:00Z', breakdown })], NOW, 5);
	assert.deepEqual(Object.keys(record.days), [
		'2026-11-19',
		'2026-11-20',
		'2026-11-21',
		'2026-11-22',
		'2026-11-23',
		'2026-11-24',
	]);
	const later = foldSnapshot(
		record,
		makeSnapshot({ generatedAt: '2026-11-25T10:00:00Z' }),
		Date.parse('2026-11-25T10:00:00Z'),
		{
			historyDays: 5,
		},
	);
	assert.deepEqual(Object.keys(later.days), ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24']);
});

test('the record is plain JSON with a schema version and epoch-ms times', () => {
	const record = foldAll([joinsSnapshot('2026-11-23T10:00:00Z', 1, 1, 1)]);
	assert.deepEqual(JSON.parse(JSON.stringify(record)), record);
	assert.equal(record.v, 1);
	assert.equal(record.updatedAt, NOW);
	assert.equal(record.days[TODAY]?.failedAllTime?.at, Date.parse('2026-11-23T10:00:00Z'));
});
