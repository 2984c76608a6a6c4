import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
	cronPattern,
	isKnownTimeZone,
	latestDueIn,
	localSlot,
	matchTimeZones,
	nextDueAfter,
	nextPostAfter,
	reportDelayMs,
} from '../../src/reports/schedule.js';
import { makeReport } from './records.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const runs = (record: ReturnType<typeof makeReport>, from: string, count: number) => {
	const out: string[] = [];
	let at = Date.parse(from);
	for (let i = 0; i < count; i += 1) {
		const next = nextDueAfter(record, at);
		assert.ok(next !== null);
		out.push(new Date(next).toISOString());
		at = next;
	}
	return out;
};

describe('report due times', () => {
	test("the next post is the next due time plus the server's delay, the current hour's included until its delayed time", () => {
		const report = makeReport({ hour: 9, timezone: 'UTC' });
		const delay = reportDelayMs(report);
		assert.ok(delay > 0);
		const nine = Date.parse('2026-11-23T09:00:00Z');
		assert.equal(nextPostAfter(report, nine - 1), nine + delay);
		assert.equal(nextPostAfter(report, nine + delay - 1), nine + delay, 'due at 09:00, not yet posted');
		assert.equal(nextPostAfter(report, nine + delay), nine + 86_400_000 + delay);
	});

	test('a daily report at 02:00 Berlin runs at 03:00 CEST on the spring-forward day, then at 02:00 again', () => {
		const report = makeReport({ hour: 2, timezone: 'Europe/Berlin' });
		assert.deepEqual(runs(report, '2026-03-28T12:00:00Z', 3), [
			'2026-03-29T01:00:00.000Z',
			'2026-03-30T00:00:00.000Z',
			'2026-03-31T00:00:00.000Z',
		]);
	});

	test('a daily report at 02:00 Berlin runs once on the autumn day the hour repeats', () => {
		const report = makeReport({ hour: 2, timezone: 'Europe/Berlin' });
		const autumn = runs(report, '2026-10-24T12:00:00Z', 3);
		assert.deepEqual(autumn, ['2026-10-25T00:00:00.000Z', '2026-10-26T01:00:00.000Z', '2026-10-27T01:00:00.000Z']);
		assert.equal(new Set(autumn.map((at) => localSlot('Europe/Berlin', Date.parse(at)))).size, 3);
	});

	test('09:00 Berlin follows the offset change: 08:00 UTC in winter, 07:00 UTC in summer', () => {
		const report = makeReport({ hour: 9, timezone: 'Europe/Berlin' });
		assert.equal(iso(nextDueAfter(report, Date.parse('2026-03-28T00:00:00Z'))), '2026-03-28T08:00:00.000Z');
		assert.equal(iso(nextDueAfter(report, Date.parse('2026-03-29T00:00:00Z'))), '2026-03-29T07:00:00.000Z');
	});

	test('weekly reports fall on their weekday, Monday by default', () => {
		const monday = makeReport({ every: 'weekly', weekday: 'mon', hour: 9, timezone: 'America/New_York' });
		assert.equal(cronPattern(monday), '0 0 9 * * 1');
		assert.deepEqual(runs(monday, '2026-11-18T00:00:00Z', 2), ['2026-11-23T14:00:00.000Z', '2026-11-30T14:00:00.000Z']);
		const sunday = makeReport({ every: 'weekly', weekday: 'sun', hour: 0 });
		assert.equal(iso(nextDueAfter(sunday, Date.parse('2026-11-23T00:00:00Z'))), '2026-11-29T00:00:00.000Z');
	});

	test('the latest due time in a window, or none', () => {
		const report = makeReport({ hour: 9 });
		const due = Date.parse('2026-11-23T09:00:00Z');
		assert.equal(latestDueIn(report, due - 3_600_000, due), due, 'the window includes its end');
		assert.equal(latestDueIn(report, due, due + 3_600_000), null, 'and excludes its start');
		assert.equal(latestDueIn(report, due - 2 * 86_400_000, due), due, 'the most recent of several');
	});

	test('local slots name the date and time in the report zone', () => {
		assert.equal(localSlot('Asia/Tokyo', Date.parse('2026-11-23T15:30:00Z')), '2026-11-24T00:30');
		assert.equal(localSlot('UTC', Date.parse('2026-11-23T00:00:00Z')), '2026-11-23T00:00');
	});
});

describe('time zone names', () => {
	test('validates with Intl, accepting names the runtime list lacks', () => {
		for (const name of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'Europe/Kyiv'])
			assert.equal(isKnownTimeZone(name), true, name);
		for (const name of ['Mars/Olympus', '', 'Europe/Berlin; DROP']) assert.equal(isKnownTimeZone(name), false, name);
	});

	test('autocomplete offers at most 25 matches, prefix matches first, UTC included', () => {
		assert.equal(matchTimeZones('').length, 25);
		assert.equal(matchTimeZones('')[0], 'UTC');
		assert.deepEqual(matchTimeZones('berl'), ['Europe/Berlin']);
		assert.equal(matchTimeZones('new york')[0], 'America/New_York');
		assert.ok(matchTimeZones('america').length <= 25);
		assert.deepEqual(matchTimeZones('utc').slice(0, 1), ['UTC']);
		assert.deepEqual(matchTimeZones('zzzz'), []);
	});
});
