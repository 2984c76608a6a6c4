import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, daysBetween, startOfDate, utcDateOf } from '../../src/history/utc-days.js';

test('dates and midnights match what Date writes and parses, over more days than are remembered', () => {
	const first = Date.UTC(1990, 0, 1);
	for (let day = 0; day < 12_000; day += 1) {
		const instant = first + day * 86_400_000 + ((day * 7919) % 86_400_000);
		const date = new Date(instant).toISOString().slice(0, 10);
		assert.equal(utcDateOf(instant), date);
		assert.equal(startOfDate(date), Date.parse(`${date}T00:00:00Z`));
	}
	assert.equal(addDays('2026-02-28', 1), '2026-03-01');
	assert.equal(daysBetween('2026-11-01', '2026-11-23'), 22);
});

test('an instant that is no date still throws, and a text that is no date still reads as NaN', () => {
	assert.throws(() => utcDateOf(Number.NaN), RangeError);
	assert.throws(() => utcDateOf(Number.NaN), RangeError);
	assert.ok(Number.isNaN(startOfDate('not a date')));
	assert.equal(utcDateOf(-1), '1969-12-31');
});
