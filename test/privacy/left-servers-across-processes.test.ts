// Two bot processes on one Redis, and on one PostgreSQL, run the left-servers job on an injected clock past
// SERVER_DATA_DAYS: the server is purged exactly once, and no key or value of the store names it afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { leftServerJobDeps } from '../../src/app/left-servers.js';
import { createPeriodicRunner, type Clock } from '../../src/core/periodic-runner.js';
import { markServerLeft } from '../../src/privacy/left-server-actions.js';
import { leftServerJob } from '../../src/privacy/left-server-job.js';
import {
	startOutside,
	startStoreRun,
	storeTargets,
	type OpenedCore,
	type Outside,
	type StoreRun,
} from '../actions/store-runs.js';
import { usable } from '../discord/shared-stores.js';
import { eventually, giveServerRecords, hasServerRecords, markOf } from './left-server-support.js';

const DAY_MS = 86_400_000;
// Far enough ahead that the real clock of the services' own jobs never finds the mark due.
const LEFT_AT = Date.now() + 400 * DAY_MS;

/** A clock stopped 31 days after the removal; timers run on real time. */
const stoppedClock: Clock = {
	now: () => LEFT_AT + 31 * DAY_MS,
	setTimer: (fn, ms) => {
		const timer = setTimeout(fn, Math.min(ms, 50));
		return () => clearTimeout(timer);
	},
};

for (const target of await storeTargets()) {
	if (target.name === 'sqlite') continue;
	const title = 'a server the bot left, purged by two processes';
	if (!usable(target, title)) continue;

	describe(`${title} on ${target.name}`, () => {
		let outside: Outside;
		let run: StoreRun;
		let processes: OpenedCore[];

		before(async () => {
			outside = await startOutside();
			run = await startStoreRun(target, outside);
			processes = [await run.open(), await run.open()];
		});
		after(async () => {
			await run?.cleanup();
			await outside?.close();
		});

		it('is purged exactly once', { timeout: 60_000 }, async () => {
			const [one, two] = processes as [OpenedCore, OpenedCore];
			const guildId = outside.sandbox.guildIds[0]!;
			await giveServerRecords(one.ctx, guildId);
			await markServerLeft({ ...one.ctx, now: () => LEFT_AT }, guildId, 'guildDelete');
			outside.sandbox.removeBotFromGuild(guildId);

			const runners = processes.map(({ ctx }) =>
				createPeriodicRunner(leftServerJob(leftServerJobDeps(ctx, stoppedClock.now)), stoppedClock),
			);
			for (const runner of runners) runner.start();
			try {
				await eventually(async () => (await markOf(two.ctx, guildId)) === null, 'the mark gone');
			} finally {
				await Promise.all(runners.map(async (runner) => runner.stop()));
			}
			assert.equal(await hasServerRecords(two.ctx, guildId), false);
			const purges = processes.flatMap(({ logs }) => logs.filter((line) => line.includes('server data purged')));
			assert.equal(purges.length, 1, purges.join('\n'));
			const raw = await run.dumpRaw();
			assert.ok(raw.length > 0, 'the scan reads the store');
			assert.ok(!raw.includes(guildId), 'no key or value names the purged server');
		});
	});
}
