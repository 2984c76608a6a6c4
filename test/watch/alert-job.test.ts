import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ChannelRefusedError } from '../../src/errors.js';
import { checkServerAlerts, FIRING_CLAIM_TTL_MS, type AlertDeps } from '../../src/watch/alert-job.js';
import { alertDeps, watchStoreOf } from '../../src/watch/watch-context.js';
import {
	freshAlertState,
	WATCH_SCHEMA_VERSION,
	type AlertKind,
	type AlertRecord,
} from '../../src/watch/watch-record.js';
import * as alert from '../../commands/alert.js';
import {
	autocomplete,
	GUILD,
	openWatchContext,
	TEXT,
	watchCommand,
	type Figures,
	type WatchTestContext,
} from './support.js';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

function makeAlert(kind: AlertKind, threshold: number, id = 'a1'): AlertRecord {
	return {
		v: WATCH_SCHEMA_VERSION,
		id,
		guildId: GUILD,
		channelId: TEXT,
		kind,
		threshold,
		createdBy: '1',
		createdAt: 0,
		guildLocale: 'en-US',
		paused: null,
		state: freshAlertState(),
	};
}

describe('alerts', () => {
	let now: number;
	let env: WatchTestContext;
	let deps: AlertDeps;
	/** The figures the endpoint answers at each evaluation, set per step. */
	let figures: Omit<Figures, 'generatedAt'>;

	beforeEach(async () => {
		now = at('2026-11-23T00:05:00Z');
		env = await openWatchContext(() => now);
		deps = alertDeps(env.ctx, () => now);
		figures = {};
		env.setFigures((time) => ({ generatedAt: new Date(time).toISOString(), ...figures }));
	});
	afterEach(async () => env.close());

	/** Evaluates at `iso` with these figures; returns how many alert posts there are in total so far. */
	async function check(iso: string, next: Omit<Figures, 'generatedAt'>): Promise<number> {
		now = at(iso);
		figures = next;
		await checkServerAlerts(deps, GUILD);
		return env.guildApi.posts.length;
	}

	it('failed-share fires once at its threshold, not again until the share falls below 80 % of it, and re-arms each UTC day', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('failed-share', 10));
		assert.equal(await check('2026-11-23T00:05:00Z', { sendsToday: 0, failedAllTime: 100 }), 0);
		assert.equal(
			await check('2026-11-23T01:00:00Z', { sendsToday: 5, failedAllTime: 105 }),
			0,
			'fewer than 20 attempts',
		);
		assert.equal(await check('2026-11-23T06:00:00Z', { sendsToday: 90, failedAllTime: 110 }), 1, '10 % of 100');
		assert.equal(await check('2026-11-23T06:15:00Z', { sendsToday: 90, failedAllTime: 114 }), 1);
		assert.equal(
			await check('2026-11-23T06:30:00Z', { sendsToday: 110, failedAllTime: 110 }),
			1,
			'8.3 %: not re-armed',
		);
		assert.equal(await check('2026-11-23T06:45:00Z', { sendsToday: 110, failedAllTime: 114 }), 1);
		assert.equal(await check('2026-11-23T07:00:00Z', { sendsToday: 200, failedAllTime: 114 }), 1, '6.5 %: re-armed');
		assert.equal(await check('2026-11-23T07:15:00Z', { sendsToday: 200, failedAllTime: 125 }), 2, '11.1 %');
		assert.equal(await check('2026-11-23T23:00:00Z', { sendsToday: 200, failedAllTime: 130 }), 2);
		// A new UTC day re-arms, from that day's first snapshot.
		assert.equal(await check('2026-11-24T00:10:00Z', { sendsToday: 0, failedAllTime: 130 }), 2);
		assert.equal(await check('2026-11-24T03:00:00Z', { sendsToday: 50, failedAllTime: 150 }), 3, '28.6 %');

		const post = env.guildApi.posts[0]!;
		assert.equal(post.channelId, TEXT);
		const embed = post.message.embeds?.[0];
		assert.match(embed?.title ?? '', /Failed sends share/);
		assert.match(embed?.description ?? '', /10 % of today's attempts \(threshold 10 %\)/);
		assert.deepEqual(
			embed?.fields?.map((field) => field.name),
			['Figure', 'Threshold', 'Value now', 'Since'],
		);
		assert.equal(embed?.fields?.[3]?.value, `<t:${at('2026-11-23T00:00:00Z') / 1000}:F>`);
		assert.equal(new Set(env.guildApi.posts.map((p) => p.nonce)).size, 3, 'one nonce per firing');
	});

	it('failed-share says "not enough data yet" on a bot started mid-day instead of guessing, and fires from the next day', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('failed-share', 10));
		assert.equal(await check('2026-11-23T14:00:00Z', { sendsToday: 50, failedAllTime: 1000 }), 0);
		assert.equal(await check('2026-11-23T14:15:00Z', { sendsToday: 50, failedAllTime: 1100 }), 0, '66 % since 14:00');
		const listing = watchCommand({ commandName: 'alert', subcommand: 'list' });
		await alert.execute(listing, env.ctx);
		assert.match(
			listing.texts.at(-1) ?? '',
			/`a1` failed sends at 10 % or more of today's attempts, in <#\d+>: not enough data yet/,
		);
		assert.equal(await check('2026-11-24T00:05:00Z', { sendsToday: 0, failedAllTime: 1200 }), 0);
		assert.equal(await check('2026-11-24T02:00:00Z', { sendsToday: 50, failedAllTime: 1250 }), 1);
	});

	it('sends-drop compares yesterday with the same weekday a week before, once per UTC day', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('sends-drop', 50));
		const breakdown = { '2026-11-15': 100, '2026-11-16': 100, '2026-11-17': 100, '2026-11-22': 40, '2026-11-23': 100 };
		assert.equal(await check('2026-11-23T00:05:00Z', { breakdown }), 1, '60 % below');
		assert.equal(await check('2026-11-23T12:00:00Z', { breakdown }), 1, 'once per day');
		assert.equal(await check('2026-11-24T00:05:00Z', { breakdown }), 1, 'yesterday equals a week before');
		assert.equal(
			await check('2026-11-25T00:05:00Z', { breakdown: { ...breakdown, '2026-11-24': 49 } }),
			2,
			'51 % below',
		);
		assert.match(env.guildApi.posts[0]?.message.embeds?.[0]?.description ?? '', /60 % below/);
	});

	it('no-sends fires after the threshold hours without a move, and re-arms when sends move again', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('no-sends', 2));
		assert.equal(await check('2026-11-23T10:00:00Z', { sendsAllTime: 500 }), 0);
		assert.equal(await check('2026-11-23T11:45:00Z', { sendsAllTime: 500 }), 0);
		assert.equal(await check('2026-11-23T12:00:00Z', { sendsAllTime: 500 }), 1);
		assert.equal(await check('2026-11-23T13:00:00Z', { sendsAllTime: 500 }), 1);
		assert.equal(await check('2026-11-23T14:00:00Z', { sendsAllTime: 501 }), 1, 'moved: re-armed');
		assert.equal(await check('2026-11-23T15:00:00Z', { sendsAllTime: 501 }), 1);
		assert.equal(await check('2026-11-23T16:00:00Z', { sendsAllTime: 501 }), 2);
		assert.match(env.guildApi.posts[0]?.message.embeds?.[0]?.description ?? '', /not moved for 2 hours/);
	});

	it('sends-milestone and joins-milestone fire once when reached, never again', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('sends-milestone', 1000, 's1'));
		await watchStoreOf(env.ctx).alerts.put(makeAlert('joins-milestone', 50, 'j1'));
		assert.deepEqual(await autocomplete(alert.onAutocomplete, env.ctx, 'alert', 'id', 'join'), [
			{ name: 'j1: all-time joins reach 50', value: 'j1' },
		]);
		assert.equal(await check('2026-11-23T10:00:00Z', { sendsAllTime: 990, joinsAllTime: 49 }), 0);
		assert.equal(await check('2026-11-23T10:15:00Z', { sendsAllTime: 1005, joinsAllTime: 49 }), 1);
		assert.equal(await check('2026-11-23T10:30:00Z', { sendsAllTime: 995, joinsAllTime: 50 }), 2);
		assert.equal(await check('2026-11-23T10:45:00Z', { sendsAllTime: 1010, joinsAllTime: 48 }), 2);
		assert.equal(await check('2026-11-23T11:00:00Z', { sendsAllTime: 2000, joinsAllTime: 60 }), 2);
		assert.match(env.guildApi.posts[0]?.message.embeds?.[0]?.description ?? '', /All-time sends reached 1,005/);
	});

	it('two evaluators deciding at once post once', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('sends-milestone', 1000));
		figures = { sendsAllTime: 1500 };
		const other = alertDeps(env.ctx, () => now);
		await Promise.all([
			checkServerAlerts(deps, GUILD),
			checkServerAlerts(other, GUILD),
			checkServerAlerts(deps, GUILD),
		]);
		assert.equal(env.guildApi.posts.length, 1);
		await Promise.all([checkServerAlerts(deps, GUILD), checkServerAlerts(other, GUILD)]);
		assert.equal(env.guildApi.posts.length, 1);
	});

	it('a process that dies after claiming a firing leaves it pending; another posts it once the claim expires', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('sends-milestone', 1000));
		figures = { sendsAllTime: 1500 };
		let claimed: () => void = () => undefined;
		const dying: AlertDeps = {
			...deps,
			postFiring: async () => {
				claimed();
				await new Promise(() => undefined); // never answers: the process is gone
			},
		};
		const holding = new Promise<void>((resolve) => {
			claimed = resolve;
		});
		void checkServerAlerts(dying, GUILD);
		await holding;
		await checkServerAlerts(deps, GUILD);
		assert.equal(env.guildApi.posts.length, 0, 'the claim holds while its owner might still post');
		now += FIRING_CLAIM_TTL_MS + MINUTE;
		await checkServerAlerts(deps, GUILD);
		assert.equal(env.guildApi.posts.length, 1, 'the firing is not lost');
		now += 15 * MINUTE;
		await checkServerAlerts(deps, GUILD);
		assert.equal(env.guildApi.posts.length, 1);
		const stored = await watchStoreOf(env.ctx).alerts.get(GUILD, 'a1');
		assert.equal(stored?.state.pending, null);
		assert.equal(stored?.state.firings, 1);
	});

	it('a channel that refuses pauses the alert with the reason', async () => {
		await watchStoreOf(env.ctx).alerts.put(makeAlert('sends-milestone', 1000));
		env.guildApi.failPost = () => new ChannelRefusedError('missingPermissions');
		assert.equal(await check('2026-11-23T10:00:00Z', { sendsAllTime: 1500 }), 0);
		const stored = await watchStoreOf(env.ctx).alerts.get(GUILD, 'a1');
		assert.equal(stored?.paused?.reason, 'missingPermissions');
		env.guildApi.failPost = null;
		assert.equal(await check('2026-11-23T10:15:00Z', { sendsAllTime: 1600 }), 0, 'a paused alert stays quiet');
		const listing = watchCommand({ commandName: 'alert', subcommand: 'list' });
		await alert.execute(listing, env.ctx);
		assert.match(listing.texts.at(-1) ?? '', /paused\*\*: Discord refused the bot a permission there/);
	});
});
