import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUtcDate, formatUtcDateRange } from '../../src/render/format.js';

/** ICU puts thin and narrow no-break spaces around the dash. */
const plain = (text: string) => text.replace(/\s/gu, ' ');

test('dates and ranges are written the same on every call, per locale', () => {
	for (let round = 0; round < 3; round++) {
		assert.equal(formatUtcDate('2026-11-24', 'en-US'), 'November 24, 2026');
		assert.equal(formatUtcDate('2026-11-24', 'de'), '24. November 2026');
		assert.equal(plain(formatUtcDateRange('2026-11-17', '2026-11-23', 'en-US')), 'Nov 17 – 23, 2026');
		assert.equal(plain(formatUtcDateRange('2026-11-23', '2026-11-23', 'en-US')), 'Nov 23, 2026');
		assert.equal(formatUtcDateRange('2026-11-17', 'not a date', 'en-US'), '2026-11-17 – not a date');
	}
});

test('more distinct dates than are kept still come out right', () => {
	const day = (index: number) => new Date(Date.UTC(2020, 0, 1 + index)).toISOString().slice(0, 10);
	for (let index = 0; index < 1200; index++) {
		const expected = new Intl.DateTimeFormat('en-US', {
			year: 'numeric',
			month: 'long',
			day: 'numeric',
			timeZone: 'UTC',
		}).format(Date.parse(`${day(index)}T00:00:00Z`));
		assert.equal(formatUtcDate(day(index), 'en-US'), expected);
	}
});
