import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import type { StatsResult, StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { UserFacingError } from '../../src/errors.js';
import { showStats, type StatsDeps } from '../../src/stats/show-stats.js';
import { buildStatsReply, type StatsReplyDeps } from '../../src/stats/stats-reply.js';

const TODAY = '2026-11-23';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

const snapshot: StatsSnapshot = {
	sends: { today: 12, weekly: 70, monthly: 300, allTime: 5000, failedAllTime: 40, dailyBreakdown: [] },
	joins: { today: 1, weekly: 7, monthly: 30, allTime: 101 },
	meta: { generatedAt: `${TODAY}T11:00:00.000Z`, user: 'Acme' },
};

const noChart: ChartRenderer = { name: 'none', render: async () => null, close: async () => {} };

function deps(now: () => number): StatsReplyDeps {
	return {
		history: { read: async () => null },
		config: { historyDays: 400 },
		log: { warn: () => undefined },
		renderer: noChart,
		now,
	};
}

const view = { scope: 'me', days: 30, locale: 'en-US' } as const;

test('a cache-hit /stats reuses the embed built from the same snapshot, record, day and view', async () => {
	const ctx = deps(() => NOON);
	const fresh: StatsResult = { snapshot, fetchedAt: NOON - 60_000, isStale: false };
	const first = await buildStatsReply(ctx, fresh, view);
	const again = await buildStatsReply(ctx, { ...fresh }, view);
	assert.equal(again.embeds[0], first.embeds[0], 'the same snapshot and view: the same embed');

	const german = await buildStatsReply(ctx, fresh, { ...view, locale: 'de' });
	assert.notEqual(german.embeds[0], first.embeds[0]);
	assert.match(String(german.embeds[0]?.fields?.[0]?.name), /Heute/u, 'another language gets its own embed');
	const shared = await buildStatsReply(ctx, fresh, { ...view, sharedBy: '123456789012345678' });
	assert.notEqual(shared.embeds[0], first.embeds[0]);
	assert.match(String(shared.embeds[0]?.description), /123456789012345678/u, 'a public copy names who posted it');

	const otherSnapshot = await buildStatsReply(ctx, { ...fresh, snapshot: { ...snapshot } }, view);
	assert.notEqual(otherSnapshot.embeds[0], first.embeds[0], 'a new snapshot is formatted anew');
	assert.deepEqual(otherSnapshot.embeds[0], first.embeds[0]);
});

test('a stale reply is built each time: it states its age at that moment', async () => {
	let now = NOON;
	const ctx = deps(() => now);
	const stale: StatsResult = { snapshot, fetchedAt: NOON - 10 * 60_000, isStale: true };
	const first = await buildStatsReply(ctx, stale, view);
	now += 50 * 60_000;
	const later = await buildStatsReply(ctx, stale, view);
	assert.notEqual(later.embeds[0]?.description, first.embeds[0]?.description);
	assert.match(String(first.embeds[0]?.description), /10 minutes/u);
	assert.match(String(later.embeds[0]?.description), /60 minutes/u);
});

test('a goals read that fails after the stats fetch failed is no unhandled rejection: the fetch error answers', async () => {
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	process.on('unhandledRejection', onUnhandled);
	try {
		const ctx = {
			...deps(() => NOON),
			links: {
				getUserKey: async () => null,
				getServerLink: async () => null,
				getServerKey: async () => null,
			},
			stats: { fetchSnapshot: async () => Promise.reject(new Error('never called')) },
		} as unknown as StatsDeps;
		let failGoals: (error: Error) => void = () => undefined;
		const goals = new Promise<never>((_, reject) => {
			failGoals = reject;
		});
		await assert.rejects(showStats(ctx, { scope: 'me', userId: '42', guildId: null }, view, goals), (error) => {
			assert.ok(error instanceof UserFacingError, 'the member hears that nothing is linked');
			return true;
		});
		failGoals(new Error('goals store broke'));
		await new Promise((resolve) => setImmediate(resolve));
		await new Promise((resolve) => setImmediate(resolve));
		assert.deepEqual(unhandled, []);
	} finally {
		process.off('unhandledRejection', onUnhandled);
	}
});
