import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeBetween, comparePeriods } from '../../src/history/compare.js';
import { foldSnapshot, type HistoryRecord } from '../../src/history/record.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { joinsSnapshot, makeSnapshot } from './snapshots.js';

const TODAY = '2026-11-23';
/** The times of day the comparisons are checked at: just after midnight, the demo's 12:18, just before midnight. */
const TIMES = ['00:05', '12:18', '23:55'] as const;
const at = (time: string) => Date.parse(`${TODAY}T${time}:00Z`);

/** Sends on a complete day `daysAgo` days before today: varied, so a period's sum depends on which days it takes. */
const sendsOn = (daysAgo: number) => 100 + ((daysAgo * 7) % 13);
/** Joins on a complete day. */
const joinsOn = (daysAgo: number) => 10 + (daysAgo % 4);
const sum = (from: number, to: number, figure: (daysAgo: number) => number) => {
	let total = 0;
	for (let daysAgo = from; daysAgo <= to; daysAgo += 1) total += figure(daysAgo);
	return total;
};

/**
 * The history a sampler would have kept: one snapshot at 06:00 on each of the `days` days before today
 * (joins before that day, that day's sends), then today's snapshot at `now` with today's figures so far.
 */
function historyAt(now: number, days: number, todaySoFar: { sends: number; joins: number }) {
	let record: HistoryRecord | null = null;
	let joinsBefore = 5000 - sum(1, days, joinsOn);
	for (let daysAgo = days; daysAgo >= 1; daysAgo -= 1) {
		const date = addDays(TODAY, -daysAgo);
		record = foldSnapshot(record, joinsSnapshot(`${date}T06:00:00Z`, joinsBefore, 1), now);
		record = foldSnapshot(
			record,
			makeSnapshot({ generatedAt: `${date}T06:00:00Z`, breakdown: { [date]: sendsOn(daysAgo) } }),
			now,
		);
		joinsBefore += joinsOn(daysAgo);
	}
	const snapshot: StatsSnapshot = makeSnapshot({
		generatedAt: new Date(now).toISOString(),
		breakdown: { [TODAY]: todaySoFar.sends },
		sendsToday: todaySoFar.sends,
		joinsAllTime: joinsBefore + todaySoFar.joins,
		joinsToday: todaySoFar.joins,
	});
	return { record: foldSnapshot(record, snapshot, now), snapshot };
}

/** Today's figures so far grow through the day, as a real account's do. */
const partial = (now: number) => {
	const share = (now - at('00:00')) / 86_400_000;
	return { sends: Math.round(110 * share), joins: Math.round(12 * share) };
};

test('at 00:05, 12:18 and 23:55 the 7- and 30-day comparisons are the same: complete days only', () => {
	const results = TIMES.map((time) => {
		const now = at(time);
		const { record, snapshot } = historyAt(now, 70, partial(now));
		return comparePeriods(record, snapshot, utcDateOf(now));
	});
	const week = { current: sum(1, 7, sendsOn), previous: sum(8, 14, sendsOn) };
	const month = { current: sum(1, 30, sendsOn), previous: sum(31, 60, sendsOn) };
	for (const [index, { sends, joins }] of results.entries()) {
		const time = TIMES[index];
		assert.deepEqual(
			sends.week,
			{ from: '2026-11-16', to: '2026-11-22', ...week, change: changeBetween(week.current, week.previous) },
			time,
		);
		assert.deepEqual(
			sends.month,
			{ from: '2026-10-24', to: '2026-11-22', ...month, change: changeBetween(month.current, month.previous) },
			time,
		);
		assert.equal(joins.week.current, sum(1, 7, joinsOn), time);
		assert.equal(joins.week.previous, sum(8, 14, joinsOn), time);
		assert.equal(joins.month.current, sum(1, 30, joinsOn), time);
		assert.equal(joins.month.previous, sum(31, 60, joinsOn), time);
	}
	assert.deepEqual(
		results[0],
		{
			...results[2],
			sends: { ...results[2]!.sends, day: results[0]!.sends.day },
			joins: { ...results[2]!.joins, day: results[0]!.joins.day },
		},
		'only today so far differs',
	);
});

test("today's figure so far stands beside yesterday's total, with no change computed", () => {
	for (const time of TIMES) {
		const now = at(time);
		const soFar = partial(now);
		const { sends, joins } = comparePeriods(...withToday(historyAt(now, 70, soFar)));
		assert.deepEqual(sends.day, { today: soFar.sends, yesterday: sendsOn(1) }, time);
		assert.deepEqual(joins.day, { today: soFar.joins, yesterday: joinsOn(1) }, time);
		assert.equal('change' in sends.day, false);
	}
});

test('a steady account reads unchanged at any hour, where the old rule showed a collapse every morning', () => {
	for (const time of TIMES) {
		const now = at(time);
		let record: HistoryRecord | null = null;
		for (let daysAgo = 61; daysAgo >= 1; daysAgo -= 1) {
			const date = addDays(TODAY, -daysAgo);
			record = foldSnapshot(
				record,
				makeSnapshot({ generatedAt: `${date}T06:00:00Z`, breakdown: { [date]: 100 } }),
				now,
			);
		}
		const snapshot = makeSnapshot({
			generatedAt: new Date(now).toISOString(),
			breakdown: { [TODAY]: 3 },
			sendsToday: 3,
		});
		const { sends } = comparePeriods(foldSnapshot(record, snapshot, now), snapshot, TODAY);
		assert.deepEqual(sends.week.change, { kind: 'percent', value: 0 }, time);
		assert.deepEqual(sends.month.change, { kind: 'percent', value: 0 }, time);
		assert.deepEqual(sends.day, { today: 3, yesterday: 100 }, time);
	}
});

test('a period the history does not fully know is unknown, never a percentage from unknown days', () => {
	const now = at('12:18');
	// 40 days of history: the 30 days to yesterday are known, the 30 before them are not.
	const { sends, joins } = comparePeriods(...withToday(historyAt(now, 40, partial(now))));
	assert.equal(sends.month.current, sum(1, 30, sendsOn));
	assert.equal(sends.month.previous, null);
	assert.deepEqual(sends.month.change, { kind: 'unknown' });
	assert.deepEqual(sends.week.change, changeBetween(sum(1, 7, sendsOn), sum(8, 14, sendsOn)));
	assert.deepEqual(joins.month.change, { kind: 'unknown' });

	// One snapshot (today's): its breakdown gives 29 complete days of sends, joins per day need two days.
	const first = makeSnapshot({
		generatedAt: new Date(now).toISOString(),
		breakdown: Object.fromEntries(Array.from({ length: 30 }, (_, back) => [addDays(TODAY, -back), 50])),
		sendsToday: 50,
		joinsAllTime: 100,
		joinsToday: 4,
	});
	const fresh = comparePeriods(foldSnapshot(null, first, now), first, TODAY);
	assert.deepEqual(fresh.sends.week, {
		from: '2026-11-16',
		to: '2026-11-22',
		current: 350,
		previous: 350,
		change: { kind: 'percent', value: 0 },
	});
	assert.equal(fresh.sends.month.current, null, 'the 30th day back is not in the breakdown');
	assert.deepEqual(fresh.sends.month.change, { kind: 'unknown' });
	assert.deepEqual(fresh.joins.day, { today: 4, yesterday: null });
	assert.deepEqual(fresh.joins.week, {
		from: '2026-11-16',
		to: '2026-11-22',
		current: null,
		previous: null,
		change: { kind: 'unknown' },
	});
});

test('an earlier period of 0 reads as new, and without a snapshot today comes from the history', () => {
	const now = at('23:55');
	let record: HistoryRecord | null = null;
	for (let daysAgo = 14; daysAgo >= 0; daysAgo -= 1) {
		const date = addDays(TODAY, -daysAgo);
		record = foldSnapshot(
			record,
			makeSnapshot({ generatedAt: `${date}T06:00:00Z`, breakdown: { [date]: daysAgo > 7 ? 0 : 20 } }),
			now,
		);
	}
	const { sends } = comparePeriods(record, null, TODAY);
	assert.deepEqual(sends.week.change, { kind: 'new' });
	assert.equal(sends.week.current, 140);
	assert.deepEqual(sends.day, { today: 20, yesterday: 20 });
});

test('changes: percent, new after zero, no change after zero, unknown when either side is', () => {
	assert.deepEqual(changeBetween(150, 120), { kind: 'percent', value: 25 });
	assert.deepEqual(changeBetween(90, 120), { kind: 'percent', value: -25 });
	assert.deepEqual(changeBetween(5, 0), { kind: 'new' });
	assert.deepEqual(changeBetween(0, 0), { kind: 'percent', value: 0 });
	assert.deepEqual(changeBetween(null, 3), { kind: 'unknown' });
	assert.deepEqual(changeBetween(3, null), { kind: 'unknown' });
});

function withToday(history: { record: HistoryRecord; snapshot: StatsSnapshot }) {
	return [history.record, history.snapshot, TODAY] as const;
}

test('the same record, snapshot and day give the same comparisons object; another day or snapshot recomputes', () => {
	const now = at('12:18');
	const { record, snapshot } = historyAt(now, 40, partial(now));
	const first = comparePeriods(record, snapshot, TODAY);
	assert.equal(comparePeriods(record, snapshot, TODAY), first, 'a cache hit reuses the answer');
	const tomorrow = comparePeriods(record, snapshot, addDays(TODAY, 1));
	assert.notEqual(tomorrow, first);
	assert.notDeepEqual(tomorrow.sends.week, first.sends.week, 'the periods moved with the day');
	const other = makeSnapshot({ generatedAt: new Date(now).toISOString(), sendsToday: 1 });
	assert.equal(comparePeriods(record, other, TODAY).sends.day.today, 1);
	assert.deepEqual(comparePeriods(record, snapshot, TODAY), first, 'and back to an equal answer');
});
