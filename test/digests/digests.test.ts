// The weekly digest through the Discord stand-in: the real GuildApi opens the DM channel and posts, the job checks
// every five minutes of an injected clock, a real SQLite store keeps the digest and claims.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { execute, onAutocomplete } from '../../commands/digest.js';
import type { AutocompleteInteraction } from '../../src/discord/interaction.js';
import type { BotContext } from '../../src/discord/context.js';
import { digestArrival, setDigest, showDigest } from '../../src/digests/digest-actions.js';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import { digestJobDeps } from '../../src/digests/digest-context.js';
import { DIGEST_CHECK_MS, DIGEST_SPREAD_MS, digestJob } from '../../src/digests/digest-job.js';
import { createPeriodicRunner } from '../../src/core/periodic-runner.js';
import { ManualClock } from '../reports/manual-clock.js';
import { setGoal, type GoalActionContext } from '../../src/goals/goal-actions.js';
import type { DiscordSandbox } from '../../sandbox/index.js';
import { refusedWith } from '../stats/action-support.js';
import {
	digestCommand,
	localTime,
	manualClock,
	member,
	MEMBER,
	openDigestContext,
	openSandbox,
	OTHER,
	type Clock,
	type DigestTestContext,
} from './support.js';

const BERLIN = 'Europe/Berlin';
const at = (iso: string) => Date.parse(iso);
const sentTimes = (outcomes: { at: number; outcome: string }[]) =>
	outcomes.filter((o) => o.outcome === 'sent').map((o) => o.at);

describe('weekly digests', () => {
	let sandbox: DiscordSandbox;
	let clock: Clock;
	let env: DigestTestContext;

	before(async () => {
		clock = manualClock(at('2027-03-21T12:00:00Z'));
		sandbox = await openSandbox(clock);
	});
	after(async () => sandbox.close());

	const fresh = async (webPublicUrl: string | null = null) => {
		await env?.close();
		sandbox.refuseDirectMessages(MEMBER, false);
		env = await openDigestContext(sandbox, clock, { webPublicUrl });
		return env;
	};
	const dms = () => sandbox.directMessages(MEMBER);

	test("goes out at 09:00 Berlin time on both sides of the spring change, in the member's language", async () => {
		await fresh();
		const before = dms().length;
		clock.set(at('2027-03-21T12:00:00Z'));
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'mon', hour: 9, timezone: BERLIN, locale: 'ja' });
		const outcomes = await env.checkEvery5Minutes(at('2027-03-22T00:00:00Z'), at('2027-03-30T00:00:00Z'));
		const sent = sentTimes(outcomes);
		assert.equal(sent.length, 2, 'one a week');
		assert.match(localTime(BERLIN, sent[0]!), /^2027-03-22 09:/);
		assert.match(localTime(BERLIN, sent[1]!), /^2027-03-29 09:/);
		assert.equal(new Date(sent[0]!).getUTCHours(), 8, 'CET is UTC+1');
		assert.equal(new Date(sent[1]!).getUTCHours(), 7, 'CEST is UTC+2');
		const [first] = dms().slice(before);
		assert.equal(dms().length - before, 2);
		assert.match(first!.content, /週間ダイジェスト/);
		const embed = first!.embeds[0] as {
			title: string;
			fields: { name: string; value: string }[];
			image?: { url: string };
		};
		assert.equal(embed.title, '今週の数値');
		assert.deepEqual(
			embed.fields.map((field) => field.name),
			['送信数', '参加数', '送信100件あたりの参加数'],
		);
		assert.equal(first!.attachments.length, 1, 'the 30-day chart');
		assert.ok(embed.image?.url, 'the embed shows the chart');
	});

	test('goes out at the chosen hour across the autumn change, with the dashboard link when configured', async () => {
		await fresh('https://stats.example');
		clock.set(at('2026-10-18T12:00:00Z'));
		const before = dms().length;
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'mon', hour: 9, timezone: BERLIN, locale: 'en-US' });
		const sent = sentTimes(await env.checkEvery5Minutes(at('2026-10-19T00:00:00Z'), at('2026-10-27T00:00:00Z')));
		assert.deepEqual(
			sent.map((time) => localTime(BERLIN, time).slice(0, 13)),
			['2026-10-19 09', '2026-10-26 09'],
		);
		const embed = dms().at(-1)!.embeds[0] as { title: string; description: string; fields: { value: string }[] };
		assert.equal(dms().length - before, 2);
		assert.equal(embed.title, 'Your week in figures');
		assert.match(embed.description, /https:\/\/stats\.example\/me/);
		assert.match(embed.description, /7 full days to yesterday/);
		assert.match(embed.fields[0]!.value, /before: /);
	});

	test("shows the member's own goals", async () => {
		await fresh();
		clock.set(at('2027-03-21T12:00:00Z'));
		await setGoal(env.ctx as unknown as GoalActionContext, member(), {
			scope: 'me',
			guildId: null,
			guildLocale: null,
			metric: 'sends',
			period: 'month',
			target: 5000,
		});
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'mon', hour: 9, timezone: 'UTC', locale: 'en-US' });
		const sent = sentTimes(await env.checkEvery5Minutes(at('2027-03-22T09:00:00Z'), at('2027-03-22T10:00:00Z')));
		assert.equal(sent.length, 1);
		const embed = dms().at(-1)!.embeds[0] as { fields: { name: string; value: string }[] };
		const goal = embed.fields.find((field) => /goal/iu.test(field.name));
		assert.ok(goal, JSON.stringify(embed.fields));
		assert.match(goal.value, /5,000/u);
	});

	test('an hour skipped by the spring change still sends that day, once', async () => {
		await fresh();
		clock.set(at('2027-03-20T12:00:00Z'));
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'sun', hour: 2, timezone: BERLIN, locale: 'en-US' });
		const sent = sentTimes(await env.checkEvery5Minutes(at('2027-03-27T22:00:00Z'), at('2027-03-29T00:00:00Z')));
		assert.equal(sent.length, 1);
		assert.match(localTime(BERLIN, sent[0]!), /^2027-03-28 03:/, '02:00 does not exist that night: 03:00 CEST');
	});

	test('one missed while the bot was down goes out when it is back the same day, not on a later day', async () => {
		await fresh();
		clock.set(at('2027-03-21T12:00:00Z'));
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'mon', hour: 9, timezone: 'UTC', locale: 'en-US' });
		// Down from Sunday until Monday 15:00.
		let sent = sentTimes(await env.checkEvery5Minutes(at('2027-03-22T15:00:00Z'), at('2027-03-22T16:00:00Z')));
		assert.deepEqual(sent, [at('2027-03-22T15:00:00Z')], 'the first check once back');
		// Down from before Monday 29th's hour until Tuesday 08:00: that week's digest is dropped.
		sent = sentTimes(await env.checkEvery5Minutes(at('2027-03-30T08:00:00Z'), at('2027-04-05T12:00:00Z')));
		assert.equal(sent.length, 1);
		assert.match(new Date(sent[0]!).toISOString(), /^2027-04-05T09:/, 'the next one on its own day');
	});

	test('Discord refusing the DM (50007) turns the digest off without a retry, and /digest show says why', async () => {
		await fresh();
		clock.set(at('2027-03-21T12:00:00Z'));
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'mon', hour: 9, timezone: 'UTC', locale: 'en-US' });
		sandbox.refuseDirectMessages(MEMBER);
		const refusedBefore = sandbox.rejections.filter((r) => r.code === 50007).length;
		const outcomes = await env.checkEvery5Minutes(at('2027-03-22T08:00:00Z'), at('2027-03-30T00:00:00Z'));
		assert.deepEqual(
			outcomes.map((o) => o.outcome),
			['turnedOff'],
		);
		assert.equal(sandbox.rejections.filter((r) => r.code === 50007).length - refusedBefore, 1, 'asked once');
		const record = await digestStoreOf(env.ctx).get(MEMBER);
		assert.equal(record?.enabled, false);
		assert.equal(record?.stopped?.reason, 'dmRefused');
		const show = digestCommand({ subcommand: 'show' });
		await execute(show, env.ctx as unknown as BotContext);
		assert.deepEqual(show.visibilities, ['private']);
		assert.match(show.texts.at(-1)!, /turned off on <t:\d+:F>: Discord did not let the bot send you a direct message/);
		// Turning it on again clears the stop.
		sandbox.refuseDirectMessages(MEMBER, false);
		const on = digestCommand({ subcommand: 'on', strings: { timezone: 'UTC' }, hour: 9 });
		await execute(on, env.ctx as unknown as BotContext);
		assert.match(
			on.texts.at(-1)!,
			/Your weekly digest is on: every Monday at 09:00 \(UTC\)\. The next one comes between <t:\d+:F> and <t:\d+:t> as a direct message\./,
		);
		assert.equal((await digestStoreOf(env.ctx).get(MEMBER))?.stopped, null);
	});

	test('/digest off stops the next one', async () => {
		await fresh();
		clock.set(at('2027-03-21T12:00:00Z'));
		const before = dms().length;
		const on = digestCommand({ subcommand: 'on', strings: { weekday: 'tue' }, locale: 'de' });
		await execute(on, env.ctx as unknown as BotContext);
		assert.match(on.texts.at(-1)!, /Deine Wochenübersicht ist eingeschaltet: jeden Dienstag um 09:00 \(UTC\)/);
		const off = digestCommand({ subcommand: 'off' });
		await execute(off, env.ctx as unknown as BotContext);
		assert.equal(off.texts.at(-1), 'Your weekly digest is off.');
		const outcomes = await env.checkEvery5Minutes(at('2027-03-23T08:00:00Z'), at('2027-03-23T11:00:00Z'));
		assert.deepEqual(outcomes, []);
		assert.equal(dms().length, before);
		const status = await showDigest(env.ctx, member(), { locale: 'fr' });
		assert.equal(status.nextAt, null);
		assert.equal(status.record?.locale, 'fr', 'the last seen locale is remembered');
	});

	test('the digest runner of the background jobs sends it within the hour, spread past its top', async () => {
		// A week no other test sends in: the stand-in, like Discord, answers a repeated nonce with the earlier DM.
		await env?.close();
		const manual = new ManualClock(at('2027-05-02T12:00:00Z'));
		env = await openDigestContext(sandbox, { now: manual.now, set: () => undefined });
		await setDigest(env.ctx, member(), { enabled: true, weekday: 'mon', hour: 9, timezone: 'UTC', locale: 'en-US' });
		const before = dms().length;
		const runner = createPeriodicRunner(digestJob(digestJobDeps(env.ctx, manual.now)), manual);
		runner.start();
		await manual.runUntil(at('2027-05-03T08:59:00Z'));
		assert.equal(dms().length, before, 'nothing before the hour');
		await manual.runUntil(at('2027-05-03T10:00:00Z'));
		await runner.stop();
		assert.equal(dms().length, before + 1);
		const sentAt = (await digestStoreOf(env.ctx).get(MEMBER))?.lastSentAt ?? 0;
		assert.equal(new Date(sentAt).getUTCHours(), 9);
		assert.equal(sentAt - at('2027-05-03T09:00:00Z') < DIGEST_SPREAD_MS + DIGEST_CHECK_MS, true);
		const arrival = digestArrival({ userId: MEMBER }, at('2027-05-03T09:00:00Z'));
		assert.ok(arrival.from <= sentAt && sentAt <= arrival.to, 'within the stretch the reply announced');
	});

	test('/digest on and show say the minutes the next one arrives in, not the top of the hour', async () => {
		await fresh();
		clock.set(at('2027-03-21T12:00:00Z'));
		const seconds = (ms: number) => Math.floor(ms / 1000);
		const { from, to } = digestArrival({ userId: MEMBER }, at('2027-03-22T09:00:00Z'));
		assert.ok(from > at('2027-03-22T09:00:00Z') && to - from === DIGEST_CHECK_MS, 'the member waits their part');
		const on = digestCommand({ subcommand: 'on', strings: { timezone: 'UTC' }, hour: 9 });
		await execute(on, env.ctx as unknown as BotContext);
		assert.match(
			on.texts.at(-1)!,
			new RegExp(`The next one comes between <t:${seconds(from)}:F> and <t:${seconds(to)}:t> as a direct message\\.`),
		);
		const show = digestCommand({ subcommand: 'show', locale: 'de' });
		await execute(show, env.ctx as unknown as BotContext);
		assert.match(
			show.texts.at(-1)!,
			new RegExp(`Nächste: zwischen <t:${seconds(from)}:F> und <t:${seconds(to)}:t>\\.`),
		);
		// The digest job sends it inside that stretch.
		const sent = sentTimes(await env.checkEvery5Minutes(at('2027-03-22T09:00:00Z'), at('2027-03-22T10:00:00Z')));
		assert.equal(sent.length, 1);
		assert.ok(from <= sent[0]! && sent[0]! <= to, new Date(sent[0]!).toISOString());
	});

	test('/digest on offers IANA time zones as the member types', async () => {
		let offered: { name: string; value: string }[] = [];
		await onAutocomplete({
			kind: 'autocomplete',
			focused: { name: 'timezone', value: 'berl' },
			respond: async (choices: typeof offered) => {
				offered = choices;
			},
		} as unknown as AutocompleteInteraction);
		assert.deepEqual(offered[0], { name: 'Europe/Berlin', value: 'Europe/Berlin' });
	});

	test("actions refuse without the member's own link, with a bad time zone, weekday or hour, and store nothing", async () => {
		await fresh();
		const on = { enabled: true, locale: 'en-US' } as const;
		await assert.rejects(setDigest(env.ctx, member(OTHER), on), refusedWith('digest.needsLink'));
		await assert.rejects(showDigest(env.ctx, member(OTHER), on), refusedWith('digest.needsLink'));
		await assert.rejects(
			setDigest(env.ctx, member(), { ...on, timezone: 'Mars/Olympus' }),
			refusedWith('report.invalidTimezone', { timezone: 'Mars/Olympus' }),
		);
		await assert.rejects(setDigest(env.ctx, member(), { ...on, hour: 24 }), refusedWith('digest.hourRange'));
		await assert.rejects(setDigest(env.ctx, member(), { ...on, hour: 7.5 }), refusedWith('digest.hourRange'));
		await assert.rejects(
			setDigest(env.ctx, member(), { ...on, weekday: 'someday' }),
			refusedWith('digest.invalidWeekday'),
		);
		assert.equal(await digestStoreOf(env.ctx).get(MEMBER), null);
		assert.equal(await digestStoreOf(env.ctx).get(OTHER), null);
		await env.close();
	});
});
