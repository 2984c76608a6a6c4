import assert from 'node:assert/strict';
import { test } from 'node:test';
import { historyWithSnapshot } from '../../src/stats/account-history.js';
import type { HistoryRecord } from '../../src/history/record.js';
import { makeSnapshot } from '../history/snapshots.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const snapshot = makeSnapshot({ generatedAt: '2026-11-23T10:00:00Z', user: 'acme', breakdown: { '2026-11-23': 4 } });
const result = { snapshot, fetchedAt: NOW, isStale: false };
const older: HistoryRecord = { v: 1, updatedAt: NOW, days: { '2026-11-01': { sends: { value: 9, at: NOW } } } };

function deps(record: () => HistoryRecord | null) {
	return { history: { read: async () => record() }, config: { historyDays: 400 }, log: { warn: () => {} } };
}

test('the same snapshot over the same stored record folds once a day', async () => {
	const ctx = deps(() => older);
	const first = await historyWithSnapshot(ctx, result, NOW);
	assert.equal(await historyWithSnapshot(ctx, result, NOW + 60_000), first);
	assert.equal(first.days['2026-11-01']?.sends?.value, 9);
	assert.equal(first.days['2026-11-23']?.sends?.value, 4);
});

test('a new stored record, another day or another snapshot folds again', async () => {
	let stored: HistoryRecord | null = older;
	const ctx = deps(() => stored);
	const first = await historyWithSnapshot(ctx, result, NOW);
	stored = { ...older, days: { ...older.days, '2026-11-02': { sends: { value: 3, at: NOW } } } };
	const second = await historyWithSnapshot(ctx, result, NOW);
	assert.notEqual(second, first);
	assert.equal(second.days['2026-11-02']?.sends?.value, 3);
	const nextDay = await historyWithSnapshot(ctx, result, NOW + 86_400_000);
	assert.notEqual(nextDay, second);
	const other = makeSnapshot({ generatedAt: '2026-11-23T11:00:00Z', user: 'acme', breakdown: { '2026-11-23': 6 } });
	const third = await historyWithSnapshot(ctx, { ...result, snapshot: other }, NOW);
	assert.equal(third.days['2026-11-23']?.sends?.value, 6);
});
