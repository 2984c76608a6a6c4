import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReportRecord } from '../../src/reports/report-record.js';
import { createPeriodicRunner, type PeriodicRunner } from '../../src/core/periodic-runner.js';
import { reportJob } from '../../src/reports/report-job.js';
import { REPORT_SPREAD_MINUTES, reportDelayMs } from '../../src/reports/schedule.js';
import { FakeClock, memoryClaims } from '../history/fake-clock.js';
import { makeReport, quietLog } from './records.js';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
/** The test reports' server posts 20 minutes after the hour (checked below, so the times here stay readable). */
const DELAY = 20 * MINUTE;

function setup(start: string, reports: ReportRecord[], sharedClaims?: ReturnType<typeof memoryClaims>) {
	const clock = new FakeClock(at(start));
	const claims = sharedClaims ?? memoryClaims(clock.now);
	const posts: { channelId: string; dueAt: string; slot: string; postedAt: string }[] = [];
	const make = (): PeriodicRunner =>
		createPeriodicRunner(
			reportJob({
				reports: {
					listAll: async function* () {
						yield* reports;
					},
				},
				claimOnce: claims.claimOnce,
				post: async (record, dueAt, slot) => {
					posts.push({
						channelId: record.channelId,
						dueAt: new Date(dueAt).toISOString(),
						slot,
						postedAt: new Date(clock.now()).toISOString(),
					});
				},
				now: clock.now,
				log: quietLog(),
			}),
			clock,
		);
	return { clock, posts, make, claims };
}

describe('report scheduler', () => {
	test("each server's reports wait a stable whole number of minutes, spread over the first half of the hour", () => {
		assert.equal(reportDelayMs(makeReport()), DELAY);
		const perMinute = new Array<number>(REPORT_SPREAD_MINUTES).fill(0);
		const servers = 6000;
		for (let i = 0; i < servers; i += 1) {
			const guildId = String(200000000000000000n + BigInt(i) * 7919n);
			const delay = reportDelayMs({ guildId });
			assert.equal(delay, reportDelayMs({ guildId }), 'the same every time');
			assert.equal(delay % MINUTE, 0, 'whole minutes, met exactly by the minute scans');
			perMinute[delay / MINUTE] = (perMinute[delay / MINUTE] ?? 0) + 1;
		}
		const mean = servers / REPORT_SPREAD_MINUTES;
		assert.ok(Math.max(...perMinute) <= 2 * mean, `busiest minute ${Math.max(...perMinute)} of mean ${mean}`);
		assert.ok(Math.min(...perMinute) > 0, 'every minute of the spread is used');
	});

	test("posts at the due local time plus the server's delay, once a day, never before", async () => {
		const report = makeReport({ hour: 9, timezone: 'Europe/Berlin' });
		const { clock, posts, make } = setup('2026-11-23T06:00:00Z', [report]);
		const scheduler = make();
		scheduler.start();
		await clock.advanceTo(at('2026-11-23T08:00:00Z') + DELAY - 1);
		assert.equal(posts.length, 0);
		await clock.advanceTo(at('2026-11-25T12:00:00Z'));
		await scheduler.stop();
		assert.deepEqual(
			posts.map((post) => [post.slot, post.dueAt, post.postedAt]),
			[
				['2026-11-23T09:00', '2026-11-23T08:00:00.000Z', '2026-11-23T08:20:00.000Z'],
				['2026-11-24T09:00', '2026-11-24T08:00:00.000Z', '2026-11-24T08:20:00.000Z'],
				['2026-11-25T09:00', '2026-11-25T08:00:00.000Z', '2026-11-25T08:20:00.000Z'],
			],
		);
	});

	test('a report added after its hour began but before its delayed time is posted that same hour', async () => {
		const report = makeReport({ hour: 9, since: at('2026-11-23T09:05:00Z') });
		const { clock, posts, make } = setup('2026-11-23T09:05:00Z', [report]);
		const scheduler = make();
		scheduler.start();
		await clock.advanceTo(at('2026-11-23T09:59:00Z'));
		await scheduler.stop();
		assert.deepEqual(
			posts.map((post) => [post.slot, post.postedAt]),
			[['2026-11-23T09:00', '2026-11-23T09:20:00.000Z']],
		);
	});

	test('two schedulers sharing the claims post each due time once', async () => {
		const reports = [makeReport({ channelId: '1' }), makeReport({ channelId: '2', hour: 10 })];
		const { clock, posts, make } = setup('2026-11-23T08:30:00Z', reports);
		const [a, b] = [make(), make()];
		a.start();
		b.start();
		await clock.advanceTo(at('2026-11-24T11:00:00Z'));
		await Promise.all([a.stop(), b.stop()]);
		assert.equal(posts.length, 4);
		assert.equal(new Set(posts.map((post) => `${post.channelId} ${post.slot}`)).size, 4);
	});

	test('a due time missed while down is posted late, once, when back within the hour', async () => {
		// Due at 09:20 (09:00 and the delay): back at 09:40.
		const report = makeReport({ hour: 9 });
		const { clock, posts, make } = setup('2026-11-23T09:40:00Z', [report]);
		const first = make();
		first.start();
		await clock.advanceTo(at('2026-11-23T09:41:00Z'));
		await first.stop();
		// A second start (another restart) finds the slot claimed.
		const second = make();
		second.start();
		await clock.advanceTo(at('2026-11-23T09:50:00Z'));
		await second.stop();
		assert.deepEqual(
			posts.map((post) => [post.slot, post.postedAt]),
			[['2026-11-23T09:00', '2026-11-23T09:40:00.000Z']],
		);
	});

	test('a due time more than an hour old is not posted, nor one before the report was added', async () => {
		// At 09:30: 08:20 is 70 minutes ago; 09:20 came before the second report was added.
		const late = makeReport({ channelId: '1', hour: 8 });
		const fresh = makeReport({ channelId: '2', hour: 9, since: at('2026-11-23T09:30:00Z') });
		const { clock, posts, make } = setup('2026-11-23T09:30:00Z', [late, fresh]);
		const scheduler = make();
		scheduler.start();
		await clock.advanceTo(at('2026-11-23T10:30:00Z'));
		await scheduler.stop();
		assert.deepEqual(posts, []);
	});

	test('paused reports are skipped', async () => {
		const paused = makeReport({ paused: { reason: 'channelGone', at: at('2026-11-20T00:00:00Z') } });
		const { clock, posts, make } = setup('2026-11-23T08:00:00Z', [paused]);
		const scheduler = make();
		scheduler.start();
		await clock.advanceTo(at('2026-11-24T10:00:00Z'));
		await scheduler.stop();
		assert.deepEqual(posts, []);
	});

	test('a store failure on the claim is tried again at the next scan, within the hour', async () => {
		const report = makeReport({ hour: 9 });
		const clock = new FakeClock(at('2026-11-23T08:59:00Z'));
		let failures = 1;
		const posted: number[] = [];
		const log = quietLog();
		const scheduler = createPeriodicRunner(
			reportJob({
				reports: {
					listAll: async function* () {
						yield report;
					},
				},
				claimOnce: async () => {
					if (failures-- > 0) throw new Error('store down');
					return true;
				},
				post: async () => {
					posted.push(clock.now());
				},
				now: clock.now,
				log,
			}),
			clock,
		);
		scheduler.start();
		await clock.advanceTo(at('2026-11-23T09:25:00Z'));
		await scheduler.stop();
		assert.deepEqual(posted, [at('2026-11-23T09:21:00Z')]);
		assert.ok(log.lines.some((line) => line.message === 'report claim failed'));
		assert.equal(clock.pendingTimers, 0, 'stop cancels the wake-up timer');
	});
});
