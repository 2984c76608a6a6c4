import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import {
	createPeriodicRunner,
	jobLateness,
	spreadOffset,
	startAll,
	type Turn,
} from '../../src/core/periodic-runner.js';
import { FakeClock, settle } from '../history/fake-clock.js';
import { ManualClock } from '../reports/manual-clock.js';

const EVERY = 60_000;
const START = Date.parse('2026-11-23T10:00:00Z');

function recordingLog() {
	const lines: { level: string; fields: object; message: string }[] = [];
	return {
		lines,
		info: (fields: object, message: string) => lines.push({ level: 'info', fields, message }),
		warn: (fields: object, message: string) => lines.push({ level: 'warn', fields, message }),
	};
}

/** A runner on a fake clock whose turns record when they began and run `body`. */
function runner(clock: FakeClock, body: (turn: Turn) => Promise<void> = async () => undefined) {
	const turns: { round: number; at: number }[] = [];
	const log = recordingLog();
	const job = createPeriodicRunner<void>(
		{
			name: 'test job',
			everyMs: EVERY,
			log,
			turn: async (turn) => {
				turns.push({ round: turn.round, at: clock.now() });
				await body(turn);
			},
		},
		clock,
	);
	return { job, turns, log };
}

/** Waits `ms` on the fake clock, as slow work would; not shortened by stop. */
const work = async (clock: FakeClock, ms: number) => new Promise<void>((resolve) => clock.setTimer(resolve, ms));

describe('periodic runner', () => {
	it('runs a turn at once, then on whole multiples of the interval: processes started apart agree on the round', async () => {
		const clock = new FakeClock(START + 25_000);
		const first = runner(clock);
		first.job.start();
		await clock.advanceTo(START + 70_000);
		const second = runner(clock);
		second.job.start();
		await clock.advanceTo(START + 3 * EVERY);
		await Promise.all([first.job.stop(), second.job.stop()]);

		const round = Math.floor(START / EVERY);
		assert.deepEqual(first.turns, [
			{ round, at: START + 25_000 },
			{ round: round + 1, at: START + EVERY },
			{ round: round + 2, at: START + 2 * EVERY },
			{ round: round + 3, at: START + 3 * EVERY },
		]);
		assert.deepEqual(second.turns, [
			{ round: round + 1, at: START + 70_000 },
			{ round: round + 2, at: START + 2 * EVERY },
			{ round: round + 3, at: START + 3 * EVERY },
		]);
		assert.equal(clock.pendingTimers, 0, 'stop cancels the wake-up timer');
	});

	it('logs an error of one turn by its name only, and the next turn still runs', async () => {
		const clock = new FakeClock(START);
		const { job, turns, log } = runner(clock, async (turn) => {
			if (turn.round === Math.floor(START / EVERY) + 1) throw new Error('sk_live_secret-key-in-a-message');
		});
		job.start();
		await clock.advanceTo(START + 2 * EVERY);
		await job.stop();

		assert.equal(turns.length, 3);
		assert.deepEqual(log.lines, [{ level: 'warn', fields: { error: 'Error' }, message: 'test job failed' }]);
		assert.ok(!JSON.stringify(log.lines).includes('sk_live'));
	});

	it('stop waits for the turn in flight, tells it, wakes its pauses, and no turn follows', async () => {
		const clock = new FakeClock(START);
		let finish = () => undefined as void;
		const seen: string[] = [];
		const { job, turns } = runner(clock, async (turn) => {
			if (turns.length === 1) return;
			await turn.sleep(10 * EVERY);
			seen.push(`woken at ${clock.now() - START}, stopping: ${turn.stopping}`);
			await new Promise<void>((resolve) => (finish = resolve));
		});
		job.start();
		await clock.advanceTo(START + EVERY + 1000);
		assert.equal(turns.length, 2, 'the second turn is in its pause');

		let stopped = false;
		const stopping = job.stop().then(() => (stopped = true));
		await settle();
		assert.deepEqual(seen, ['woken at 61000, stopping: true'], 'stop ends the pause at once');
		assert.equal(stopped, false, 'stop waits for the turn in flight');
		finish();
		await stopping;
		await clock.advanceTo(START + 5 * EVERY);
		assert.equal(turns.length, 2, 'no turn after stop');
		assert.equal(clock.pendingTimers, 0);
	});

	it('a turn that overruns is followed at once by the round then current; the rounds it missed are skipped', async () => {
		const clock = new FakeClock(START);
		const { job, turns } = runner(clock, async () => {
			if (turns.length === 1) await work(clock, 2.5 * EVERY);
		});
		job.start();
		await clock.advanceTo(START + 4 * EVERY);
		await job.stop();

		const round = Math.floor(START / EVERY);
		assert.deepEqual(turns, [
			{ round, at: START },
			{ round: round + 2, at: START + 2.5 * EVERY },
			{ round: round + 3, at: START + 3 * EVERY },
			{ round: round + 4, at: START + 4 * EVERY },
		]);
	});

	it('a second start while running is ignored, and the runner starts again after a stop', async () => {
		const clock = new FakeClock(START);
		const { job, turns } = runner(clock);
		job.start();
		job.start();
		await clock.advanceTo(START + EVERY);
		await job.stop();
		assert.equal(turns.length, 2);
		await clock.advanceTo(START + 3 * EVERY);
		job.start();
		await clock.advanceTo(START + 4 * EVERY);
		await job.stop();
		assert.deepEqual(
			turns.map((turn) => turn.at - START),
			[0, EVERY, 3 * EVERY, 4 * EVERY],
		);
	});

	it('startAll stops every runner once, however often stop is called', async () => {
		const clock = new FakeClock(START);
		const a = runner(clock);
		const b = runner(clock);
		const all = startAll([a.job, b.job]);
		await clock.advanceTo(START + EVERY);
		const [first, second] = [all.stop(), all.stop()];
		assert.equal(first, second);
		await first;
		await clock.advanceTo(START + 3 * EVERY);
		assert.equal(a.turns.length, 2);
		assert.equal(b.turns.length, 2);
		assert.equal(clock.pendingTimers, 0);
	});
});

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
	const job = createPeriodicRunner<string>(
		{
			name: 'statchannels',
			everyMs,
			spread: {
				list: () => items,
				keyOf: (item) => item,
				spreadBy: (item) => item,
				claimOnce: async (key) => {
					if (claims.has(key)) return false;
					claims.add(key);
					return true;
				},
				concurrency: 1,
			},
			// 20 s a turn, one at a time: 15 turns fit in an interval of 40 items, so the job runs late.
			turn: async ({ item, latenessMs }) => {
				served.push({ item, at: clock.now(), latenessMs });
				await new Promise<void>((resolve) => {
					release = resolve;
					clock.setTimer(resolve, 20_000);
				});
			},
			log: silent,
		},
		clock,
	);
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
	const job = createPeriodicRunner<string>(
		{
			name: 'alerts',
			everyMs,
			spread: {
				list: () => ['a', 'b', 'c'],
				keyOf: (item) => item,
				spreadBy: (item) => item,
				claimOnce: async () => true,
			},
			turn: async ({ item }) => {
				served.push({ item, at: clock.now() });
			},
			log: silent,
		},
		clock,
	);
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
		createPeriodicRunner<string>(
			{
				name: `fair-${name}`,
				everyMs,
				spread: {
					list: () => items,
					keyOf: (item) => item,
					spreadBy: (item) => item,
					claimOnce: async (key) => {
						const shared = key.replace(`fair-${name}`, 'fair');
						if (claims.has(shared)) return false;
						claims.add(shared);
						return true;
					},
					concurrency: 1,
				},
				turn: async ({ item }) => {
					served.push({ item, at: clock.now(), process: name });
					await new Promise<void>((resolve) => {
						releases.push(resolve);
						clock.setTimer(resolve, turnMs);
					});
				},
				log: silent,
			},
			clock,
		);
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
