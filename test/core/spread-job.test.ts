import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSpreadJob, jobLateness, spreadOffset } from '../../src/core/spread-job.js';
import { ManualClock } from '../reports/manual-clock.js';

const MINUTE = 60_000;
const silent = { info: () => undefined, warn: () => undefined };

test("a job's items start spread over the interval: no tenth holds more than twice the mean", () => {
	const everyMs = 5 * MINUTE;
	const tenths = Array.from({ length: 10 }, () => 0);
	const servers = Array.from({ length: 2000 }, (_, i) => String(800_000_000_000_000_000n + BigInt(i) * 4_194_304n));
	for (const id of servers) {
		const offset = spreadOffset(id, everyMs);
		assert.ok(offset >= 0 && offset < everyMs);
		assert.equal(offset, spreadOffset(id, everyMs), 'stable');
		tenths[Math.floor((offset / everyMs) * 10)]! += 1;
	}
	const mean = servers.length / 10;
	for (const [tenth, count] of tenths.entries()) assert.ok(count <= 2 * mean, `tenth ${tenth} holds ${count}`);
	assert.ok(Math.min(...tenths) > 0, 'every tenth has items');
});

test('when the items cannot all be served within the interval, each is served less often, in turn', async () => {
	const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
	const everyMs = 5 * MINUTE;
	const items = Array.from({ length: 40 }, (_, i) => `guild-${i}`);
	const served: { item: string; at: number; latenessMs: number }[] = [];
	const claims = new Set<string>();
	let release: () => void = () => undefined;
	const job = createSpreadJob<string>({
		job: 'statchannels',
		everyMs,
		list: () => items,
		keyOf: (item) => item,
		spreadBy: (item) => item,
		// 20 s a turn, one at a time: 15 turns fit in an interval of 40 items, so the job runs late.
		serve: async (item, slot) => {
			served.push({ item, at: clock.now(), latenessMs: slot.latenessMs });
			await new Promise<void>((resolve) => {
				release = resolve;
				clock.setTimer(resolve, 20_000);
			});
		},
		claimOnce: async (key) => {
			if (claims.has(key)) return false;
			claims.add(key);
			return true;
		},
		clock,
		log: silent,
		concurrency: 1,
	});
	job.start();
	await clock.runUntil(clock.now() + 60 * MINUTE);
	// The turn in flight sleeps on the clock, which no longer moves: end it by hand so stop() returns.
	const stopped = job.stop();
	release();
	await stopped;

	assert.ok(served.length >= 150, `served ${served.length}`);
	// Fair: between two turns of one item, every other item had a turn.
	const firstTurns = new Set<string>();
	for (const [index, turn] of served.entries()) {
		if (firstTurns.size < items.length) {
			assert.ok(
				!firstTurns.has(turn.item),
				`${turn.item} got a second turn at ${index} before every item got its first`,
			);
			firstTurns.add(turn.item);
		}
	}
	for (const item of items) {
		const turns = served.flatMap((turn, index) => (turn.item === item ? [index] : []));
		for (let i = 1; i < turns.length; i += 1) {
			const between = new Set(served.slice(turns[i - 1]! + 1, turns[i]).map((turn) => turn.item));
			assert.ok(between.size >= items.length - 1 - 1, `${item}: only ${between.size} others served between its turns`);
		}
	}
	const lateness = jobLateness('statchannels');
	assert.ok(lateness && lateness.worstMs > everyMs, 'the lateness is measured and shows the job runs late');
});

test('items the budget can serve come once per interval, at their offset', async () => {
	const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
	const start = clock.now();
	const everyMs = 5 * MINUTE;
	const served: { item: string; at: number }[] = [];
	const job = createSpreadJob<string>({
		job: 'alerts',
		everyMs,
		list: () => ['a', 'b', 'c'],
		keyOf: (item) => item,
		spreadBy: (item) => item,
		serve: async (item) => {
			served.push({ item, at: clock.now() });
		},
		claimOnce: async () => true,
		clock,
		log: silent,
	});
	job.start();
	await clock.runUntil(start + 30 * MINUTE);
	await job.stop();
	for (const item of ['a', 'b', 'c']) {
		const times = served.filter((turn) => turn.item === item).map((turn) => turn.at);
		// The first at once (its slot had begun), then at its offset in every interval.
		assert.equal(times[0], start);
		for (const at of times.slice(1)) assert.equal((at - start) % everyMs, spreadOffset(item, everyMs) % everyMs);
		assert.ok(times.length >= 6 && times.length <= 7, `${item}: ${times.length} turns in 30 minutes`);
	}
});

test('two processes, one slower: a turn one served in its slot is not served again by the other after the slot ends', async () => {
	const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'), 2);
	const everyMs = 5 * MINUTE;
	const items = Array.from({ length: 60 }, (_, i) => `server-${i}`);
	const served: { item: string; at: number; process: string }[] = [];
	const claims = new Set<string>();
	const releases: (() => void)[] = [];
	// One process serves a turn in 10 s, the other in 30 s: 40 turns an interval for 60 items, so both run late,
	// and the slower one reaches an item well after the faster one served it, often after that item's slot ended.
	const processOf = (name: string, turnMs: number) =>
		createSpreadJob<string>({
			job: `fair-${name}`,
			everyMs,
			list: () => items,
			keyOf: (item) => item,
			spreadBy: (item) => item,
			serve: async (item) => {
				served.push({ item, at: clock.now(), process: name });
				await new Promise<void>((resolve) => {
					releases.push(resolve);
					clock.setTimer(resolve, turnMs);
				});
			},
			claimOnce: async (key) => {
				const shared = key.replace(`fair-${name}`, 'fair');
				if (claims.has(shared)) return false;
				claims.add(shared);
				return true;
			},
			clock,
			log: silent,
			concurrency: 1,
		});
	const jobs = [processOf('fast', 10_000), processOf('slow', 30_000)];
	for (const job of jobs) job.start();
	await clock.runUntil(clock.now() + 40 * MINUTE);
	const stopped = Promise.all(jobs.map(async (job) => job.stop()));
	for (const release of releases) release();
	await stopped;

	assert.ok(served.length >= 250, `served ${served.length}`);
	assert.ok(new Set(served.map((turn) => turn.process)).size === 2, 'both processes served');
	// Fair across both: between two turns of one item, every other item had a turn.
	for (const item of items) {
		const turns = served.flatMap((turn, index) => (turn.item === item ? [index] : []));
		for (let i = 1; i < turns.length; i += 1) {
			const between = new Set(served.slice(turns[i - 1]! + 1, turns[i]).map((turn) => turn.item));
			assert.ok(
				between.size >= items.length - 2,
				`${item}: only ${between.size} others served between its turns ${turns[i - 1]} and ${turns[i]}`,
			);
		}
	}
});
