import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStatsStore, seedDemoAccount } from '../../src/service/index.js';
import { makeTempDir } from './support.js';

function rollupDays(store: ReturnType<typeof openStatsStore>): number {
	return (store.db.prepare('SELECT COUNT(*) AS n FROM daily_rollups').get() as { n: number }).n;
}

describe('demo account', () => {
	const temp = makeTempDir('stats-demo');
	after(() => temp.cleanup());

	test('at midday it holds 120 days of activity with a realistic failed share and fewer joins than sends', (t) => {
		const store = openStatsStore(join(temp.dir, 'midday.sqlite'));
		t.after(() => store.close());
		const now = new Date('2026-11-21T12:00:00Z');
		const { apiKey } = seedDemoAccount(store, { now });
		assert.equal(store.authenticate(apiKey)?.name, 'demo');
		const stats = store.computeStats('demo', now).data;
		const failedShare = stats.sends.failed_all_time / (stats.sends.all_time + stats.sends.failed_all_time);
		assert.ok(failedShare > 0.03 && failedShare < 0.08, `failed share ${failedShare}`);
		assert.ok(stats.joins.all_time > 0 && stats.joins.all_time < stats.sends.all_time);
		assert.ok(stats.sends.daily_breakdown.every((day) => day.sends > 0));
		assert.equal(rollupDays(store), 120);
	});

	test('just after 00:00 UTC today has no events yet, so 119 days hold activity; by 00:10 all 120 do', (t) => {
		const store = openStatsStore(join(temp.dir, 'midnight.sqlite'));
		t.after(() => store.close());
		seedDemoAccount(store, { now: new Date('2026-11-21T00:00:30Z') });
		assert.equal(rollupDays(store), 119);
		seedDemoAccount(store, { now: new Date('2026-11-21T00:10:00Z') });
		assert.equal(rollupDays(store), 120);
	});
});
