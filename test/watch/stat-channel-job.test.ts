import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ChannelRefusedError, RenameRateLimitedError } from '../../src/errors.js';
import { RENAME_WINDOW_MS } from '../../src/watch/rename-budget.js';
import { statChannelJob } from '../../src/watch/stat-channel-job.js';
import { createPeriodicRunner, spreadOffset } from '../../src/core/periodic-runner.js';
import { statChannelDeps, watchStoreOf } from '../../src/watch/watch-context.js';
import type { StatChannelRecord } from '../../src/watch/watch-record.js';
import * as statchannel from '../../commands/statchannel.js';
import { ManualClock } from '../reports/manual-clock.js';
import { autocomplete, GUILD, openWatchContext, VOICE, watchCommand, type WatchTestContext } from './support.js';
import { statChannelRecord } from './stat-channel-records.js';

const START = Date.parse('2026-11-23T10:00:00Z');
const MINUTE = 60_000;

function statChannel(overrides: Partial<StatChannelRecord> = {}): StatChannelRecord {
	return statChannelRecord(GUILD, VOICE, { createdAt: START, ...overrides });
}

describe('stat channels', () => {
	let clock: ManualClock;
	let env: WatchTestContext;

	beforeEach(async () => {
		clock = new ManualClock(START);
		env = await openWatchContext(clock.now);
	});
	afterEach(async () => env.close());

	/** Runs the refresh loop every `minutes` from START to `until` (epoch ms). */
	async function runWatcher(until: number, minutes = 5) {
		const watcher = createPeriodicRunner(
			statChannelJob({
				deps: statChannelDeps(env.ctx, clock.now),
				claimOnce: async (key, ttlMs) => (await env.ctx.coordinator.claim(key, ttlMs)).claimed,
				everyMs: minutes * MINUTE,
			}),
			clock,
		);
		watcher.start();
		await clock.runUntil(until);
		await watcher.stop();
	}

	it('renames a channel whose figure changes every minute at most twice in any 10 minutes, each time to the latest figure', async () => {
		await watchStoreOf(env.ctx).statChannels.put(statChannel());
		const figureAt = (at: number) => 1000 + Math.floor((at - START) / MINUTE);
		env.setFigures((at) => ({ generatedAt: new Date(at).toISOString(), sendsAllTime: figureAt(at) }));
		await runWatcher(START + 90 * MINUTE);

		const renames = env.guildApi.renames;
		assert.ok(renames.length >= 8, `renamed ${renames.length} times in 90 minutes`);
		for (const rename of renames) {
			const inWindow = renames.filter((other) => other.at >= rename.at && other.at < rename.at + 10 * MINUTE);
			assert.ok(inWindow.length <= 2, `three renames within 10 minutes from ${new Date(rename.at).toISOString()}`);
			assert.equal(rename.name, `Sends all time: ${figureAt(rename.at).toLocaleString('en-US')}`);
		}
		// Within one refresh (5 minutes) after the budget allows again, the channel shows the latest figure.
		for (let index = 2; index < renames.length; index += 1) {
			const allowedAt = renames[index - 2]!.at + RENAME_WINDOW_MS;
			assert.ok(renames[index]!.at <= allowedAt + 5 * MINUTE, `rename ${index} came late`);
		}
		const stored = await watchStoreOf(env.ctx).statChannels.get(GUILD, VOICE);
		assert.equal(stored?.name, renames.at(-1)?.name);
	});

	it('renames nothing while the figure stays the same', async () => {
		await watchStoreOf(env.ctx).statChannels.put(statChannel({ name: 'Sends all time: 1,234' }));
		env.setFigures((at) => ({ generatedAt: new Date(at).toISOString(), sendsAllTime: 1234 }));
		await runWatcher(START + 60 * MINUTE);
		assert.deepEqual(env.guildApi.renames, []);
		assert.ok(env.fetches.length >= 12, 'the figure was read at every refresh');
	});

	it("waits out a 429's retry_after and then shows the latest figure", async () => {
		await watchStoreOf(env.ctx).statChannels.put(statChannel());
		env.setFigures((at) => ({
			generatedAt: new Date(at).toISOString(),
			sendsAllTime: Math.floor((at - START) / MINUTE),
		}));
		const attempts: number[] = [];
		env.guildApi.failRename = () => {
			attempts.push(clock.now());
			return attempts.length === 1 ? new RenameRateLimitedError(9 * MINUTE + 30_000) : null;
		};
		await runWatcher(START + 30 * MINUTE);
		assert.equal(attempts[0], START, 'the first refresh tried at once');
		// Then at the server's own offset in each 5-minute interval: the first such time after retry_after.
		const offset = spreadOffset(GUILD, 5 * MINUTE);
		const allowedAt = START + 9 * MINUTE + 30_000;
		const nextTurn = Math.ceil((allowedAt - offset) / (5 * MINUTE)) * 5 * MINUTE + offset;
		assert.equal(attempts[1], nextTurn, 'nothing was sent before retry_after passed');
		assert.equal(env.guildApi.renames[0]?.at, nextTurn);
		assert.equal(env.guildApi.renames[0]?.name, `Sends all time: ${Math.floor((nextTurn - START) / MINUTE)}`);
	});

	it('removing and adding a channel again does not buy a third rename within 10 minutes', async () => {
		env.guildApi.permissions.set(VOICE, 1n << 3n); // Administrator
		let figure = 1;
		env.setFigures((time) => ({ generatedAt: new Date(time).toISOString(), sendsAllTime: figure }));
		const add = () =>
			watchCommand({
				commandName: 'statchannel',
				subcommand: 'add',
				channel: { id: VOICE, type: 2 },
				strings: { figure: 'sends-all' },
			});
		const remove = () =>
			watchCommand({ commandName: 'statchannel', subcommand: 'remove', strings: { channel: `<#${VOICE}>` } });
		for (let round = 1; round <= 3; round += 1) {
			figure = round;
			const adding = add();
			await statchannel.execute(adding, env.ctx);
			assert.equal(adding.replies[0]?.visibility, 'private');
			if (round < 3) assert.match(adding.texts.at(-1) ?? '', /is named `Sends all time: \d`/);
			else assert.match(adding.texts.at(-1) ?? '', /its name follows within 10 minutes/);
			await statchannel.execute(remove(), env.ctx);
		}
		assert.deepEqual(
			env.guildApi.renames.map((rename) => rename.name),
			['Sends all time: 1', 'Sends all time: 2'],
		);
	});

	it('pauses a deleted channel with the reason, tries it no more, and remove still removes it', async () => {
		await watchStoreOf(env.ctx).statChannels.put(statChannel());
		env.setFigures((at) => ({
			generatedAt: new Date(at).toISOString(),
			sendsAllTime: Math.floor((at - START) / MINUTE),
		}));
		let attempts = 0;
		env.guildApi.failRename = () => {
			attempts += 1;
			return new ChannelRefusedError('channelGone');
		};
		await runWatcher(START + 30 * MINUTE);
		assert.equal(attempts, 1, 'a paused channel is not tried again');
		const stored = await watchStoreOf(env.ctx).statChannels.get(GUILD, VOICE);
		assert.equal(stored?.paused?.reason, 'channelGone');

		const listing = watchCommand({ commandName: 'statchannel', subcommand: 'list' });
		await statchannel.execute(listing, env.ctx);
		assert.match(listing.texts.at(-1) ?? '', /paused\*\*: the channel no longer exists/);

		const offered = await autocomplete(statchannel.onAutocomplete, env.ctx, 'statchannel', 'channel', '');
		assert.deepEqual(offered, [{ name: `deleted channel ${VOICE}`, value: VOICE }], 'a deleted channel is offered');

		const removal = watchCommand({ commandName: 'statchannel', subcommand: 'remove', strings: { channel: VOICE } });
		await statchannel.execute(removal, env.ctx);
		assert.equal(removal.replies[0]?.visibility, 'private');
		assert.match(removal.texts.at(-1) ?? '', new RegExp(`<#${VOICE}> is no longer a stat channel`));
		assert.equal(await watchStoreOf(env.ctx).statChannels.get(GUILD, VOICE), null);
	});
});
