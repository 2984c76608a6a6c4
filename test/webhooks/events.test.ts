// Where events come from: an alert's post (a goal alert included) queued as `alert.fired` by the same function that
// posts it, with the text the bot posted in the server's language and the figures as numbers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Actor } from '../../src/core/actor.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { setServerKey } from '../../src/stats/server-key-actions.js';
import { addAlert } from '../../src/watch/alert-actions.js';
import { alertDeps } from '../../src/watch/watch-context.js';
import type { AlertFiring } from '../../src/watch/watch-record.js';
import { addWebhook } from '../../src/webhooks/webhook-actions.js';
import { deliveryDeps } from '../../src/webhooks/webhook-context.js';
import { messageText } from '../../src/webhooks/webhook-events.js';
import { queueKey } from '../../src/webhooks/webhook-record.js';
import { queueReportEvent } from '../../src/app/background-jobs.js';
import { realClock } from '../../src/core/periodic-runner.js';
import type { BotContext } from '../../src/discord/context.js';
import { buildReportPost } from '../../src/reports/build-report-post.js';
import { makeReport } from '../reports/records.js';
import { deliverDue } from '../../src/webhooks/webhook-job.js';
import { webhookStoreOf } from '../../src/webhooks/webhook-store.js';
import { startOutside, startStoreRun, type Outside, type StoreRun } from '../actions/store-runs.js';
import { uniqueSnowflake } from '../discord/shared-stores.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('events from what the bot posts', () => {
	let outside: Outside;
	let run: StoreRun;
	let ctx: CoreContext;
	let receiver: Receiver;
	let guildId: string;
	let alertChannel: string;
	const admin: Actor = { userId: uniqueSnowflake('53'), canManageServer: true, roleIds: [], origin: 'discord' };

	before(async () => {
		outside = await startOutside();
		run = await startStoreRun({ name: 'sqlite', unavailable: null, url: null }, outside);
		const opened = await run.open();
		receiver = await startReceiver();
		ctx = { ...opened.ctx, config: { ...opened.ctx.config, webhookAllowHosts: ['127.0.0.1'] } };
		guildId = outside.sandbox.guilds[0]!.id;
		alertChannel = outside.sandbox.guilds[0]!.channelIds[2]!;
		await setServerKey(opened.ctx, admin, guildId, outside.createAccount('Events'), { guildLocale: 'de' });
		await opened.ctx.settings.update(guildId, { language: 'de' });
	});
	after(async () => {
		await receiver?.close();
		await run?.cleanup();
		await outside?.close();
	});

	test('a goal alert posted is queued once as alert.fired, worded as posted, in the server language', async () => {
		const { secret } = await addWebhook(ctx, admin, {
			guildId,
			guildLocale: 'de',
			format: 'standard',
			events: 'alerts',
			url: receiver.url('/alerts'),
		});
		assert.ok(secret);
		await addWebhook(ctx, admin, {
			guildId,
			guildLocale: 'de',
			format: 'slack',
			events: 'reports',
			url: receiver.url('/reports'),
		});
		const channel = { id: alertChannel, type: outside.sandbox.channel(alertChannel)?.type ?? null };
		const alert = await addAlert(ctx, admin, guildId, {
			kind: 'goal-reached',
			channel,
			threshold: null,
			guildLocale: 'de',
		});
		const firing: AlertFiring = {
			number: 1,
			value: 1250,
			since: Date.parse('2026-11-01T00:00:00Z'),
			at: Date.parse('2026-11-23T10:00:00Z'),
			goal: { metric: 'sends', period: 'month', start: '2026-11-01', target: 1000, progress: 1250, forecast: null },
		};
		await alertDeps(ctx, Date.now).postFiring(alert, firing, 'nonce-1');
		const posted = outside.sandbox.channelMessages(alertChannel).at(-1)!;
		const queued = [];
		for await (const delivery of webhookStoreOf(ctx).queued(guildId)) queued.push(delivery);
		assert.equal(queued.length, 1, 'only the webhook that wants alerts');
		const [delivery] = queued;
		assert.equal(delivery!.type, 'alert.fired');
		const { text } = messageText({ content: posted.content ?? undefined, embeds: posted.embeds as never });
		assert.equal(delivery!.event.text, text, 'the text the bot posted');
		assert.match(delivery!.event.text, /Ziel/u, "the server's language (German)");
		assert.equal(delivery!.event.figures.progress, 1250);
		assert.equal(delivery!.event.figures.target, 1000);
		assert.equal(delivery!.event.details.kind, 'goal-reached');
		assert.equal(delivery!.event.account, 'Events');

		await deliverDue(deliveryDeps(ctx));
		assert.deepEqual(
			receiver.received.map((request) => request.path),
			['/alerts'],
		);
		const body = JSON.parse(receiver.received[0]!.body) as { type: string; data: Record<string, unknown> };
		assert.equal(body.type, 'alert.fired');
		assert.equal(body.data.progress, 1250);
		assert.deepEqual(body.data.server, { id: guildId, name: outside.sandbox.guilds[0]!.name });
	});

	test('a report posted is queued as report.posted with its text and the account figures as numbers', async () => {
		const store = webhookStoreOf(ctx);
		for await (const delivery of store.queued(guildId)) await store.updateQueued(queueKey(delivery), () => null);
		const report = makeReport({ guildId, channelId: alertChannel, every: 'weekly', createdBy: admin.userId });
		const post = await buildReportPost(ctx, report);
		await queueReportEvent(ctx as BotContext, realClock, report, post);
		const queued = [];
		for await (const delivery of store.queued(guildId)) queued.push(delivery);
		assert.equal(queued.length, 1, 'only the webhook that wants reports');
		const [delivery] = queued;
		assert.equal(delivery!.type, 'report.posted');
		assert.equal(delivery!.event.text, messageText(post).text);
		assert.equal(typeof delivery!.event.figures.sendsWeek, 'number');
		assert.equal(delivery!.event.details.every, 'weekly');
	});
});
