import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolError } from '../../src/errors.js';
import { MAX_BREAKDOWN_SPAN_DAYS, normaliseBreakdown, parseStatsBody } from '../../src/stats-api/validate.js';
import { validBody } from './fault-server.js';

const parse = (body: unknown) => parseStatsBody(JSON.stringify(body));

test('a body without data is a protocol error naming only the field', () => {
	assert.throws(
		() => parse({ stats: {} }),
		(error: unknown) => error instanceof ProtocolError && /data/.test(error.message),
	);
});

test('a generated_at that is not ISO 8601 with an offset is a protocol error', () => {
	assert.throws(() => parse(validBody({ meta: { generated_at: 'yesterday', user: 'a' } })), ProtocolError);
	assert.throws(() => parse(validBody({ meta: { generated_at: '2026-11-21T09:30:12', user: 'a' } })), ProtocolError);
	assert.equal(
		parse(validBody({ meta: { generated_at: '2026-11-21T09:30:12Z' } })).meta.generatedAt,
		'2026-11-21T09:30:12Z',
	);
});

test('a string, an array or null at the top is a protocol error', () => {
	for (const text of ['"x"', '[]', 'null', '']) assert.throws(() => parseStatsBody(text), ProtocolError);
});

test('counts past the safe integer range are protocol errors', () => {
	assert.throws(() => parse(validBody({ joins: { today: 2 ** 60 } })), ProtocolError);
});

test('absent sends, joins and meta objects read as unknown figures', () => {
	const snapshot = parse({ data: {} });
	assert.equal(snapshot.sends.allTime, null);
	assert.deepEqual(snapshot.sends.dailyBreakdown, []);
	assert.equal(snapshot.meta.user, null);
});

test('a breakdown day with a null count counts as zero', () => {
	assert.deepEqual(
		parse(validBody({ sends: { daily_breakdown: [{ date: '2026-01-01', sends: null }] } })).sends.dailyBreakdown,
		[{ date: '2026-01-01', sends: 0 }],
	);
});

test('zero-filling crosses month and leap-day boundaries', () => {
	const days = normaliseBreakdown([
		{ date: '2028-03-01', sends: 1 },
		{ date: '2028-02-28', sends: 2 },
	]);
	assert.deepEqual(
		days.map((day) => day.date),
		['2028-02-28', '2028-02-29', '2028-03-01'],
	);
});

test('a breakdown spanning decades is refused instead of being zero-filled', () => {
	assert.throws(
		() =>
			normaliseBreakdown([
				{ date: '1990-01-01', sends: 1 },
				{ date: '2026-01-01', sends: 1 },
			]),
		ProtocolError,
	);
	assert.ok(MAX_BREAKDOWN_SPAN_DAYS >= 366);
});
