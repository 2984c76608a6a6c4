import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPeriodicRunner, startAll, type Turn } from '../../src/core/periodic-runner.js';
import { FakeClock, settle } from '../history/fake-clock.js';

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
	const job = createPeriodicRunner({
		name: 'test job',
		everyMs: EVERY,
		clock,
		log,
		turn: async (turn) => {
			turns.push({ round: turn.round, at: clock.now() });
			await body(turn);
		},
	});
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
