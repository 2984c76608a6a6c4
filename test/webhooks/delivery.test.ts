// Outgoing webhooks end to end on loopback: the bot's own services on a real store, a real HTTP receiver that
// verifies every standard delivery with the standardwebhooks package's own verifier, the Discord stand-in for the
// audit channel. Two bot processes on one Redis or PostgreSQL: delivery-across-processes.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import type { Actor } from '../../src/core/actor.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { forgetMember } from '../../src/privacy/forget-member.js';
import { purgeServer } from '../../src/privacy/purge-server.js';
import { UserFacingError } from '../../src/errors.js';
import { deliveryDeps, type WebhookContext } from '../../src/webhooks/webhook-context.js';
import { queueWebhookEvent } from '../../src/webhooks/webhook-events.js';
import { deliverDue, webhookJob } from '../../src/webhooks/webhook-job.js';
import type { Turn } from '../../src/core/periodic-runner.js';
import { addWebhook, listWebhooks, removeWebhook, testWebhook } from '../../src/webhooks/webhook-actions.js';
import { webhookStoreOf } from '../../src/webhooks/webhook-store.js';
import type { WebhookEventData } from '../../src/webhooks/webhook-record.js';
import { startOutside, startStoreRun, type Outside, type StoreRun } from '../actions/store-runs.js';
import { uniqueSnowflake } from '../discord/shared-stores.js';
import { startReceiver, type Receiver } from './receiver.js';

const event = (text: string): WebhookEventData => ({
	server: { id: '1', name: 'Guild' },
	account: 'Acme',
	title: 'Alert: sends milestone',
	text,
	figures: { value: 1200, threshold: 1000 },
	details: { kind: 'sends-milestone' },
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
	const all: T[] = [];
	for await (const item of items) all.push(item);
	return all;
}

/** Short retries, so three attempts fit a test; the schedule's own length (9 retries) is kept. */
const FAST_RETRIES = [1, 1, 1, 1, 1, 1, 1, 1, 1];

describe('outgoing webhooks on SQLite', () => {
	let outside: Outside;
	let run: StoreRun;
	let ctx: WebhookContext;
	let logs: string[];
	let registry: Registry;
	let receiver: Receiver;
	let guildId: string;
	let auditChannel: string;
	const admin: Actor = { userId: uniqueSnowflake('51'), canManageServer: true, roleIds: [], origin: 'discord' };

	before(async () => {
		outside = await startOutside();
		run = await startStoreRun({ name: 'sqlite', unavailable: null, url: null }, outside);
		const opened = await run.open();
		logs = opened.logs;
		registry = opened.ctx.metrics.registry;
		receiver = await startReceiver();
		ctx = {
			...opened.ctx,
			config: { ...opened.ctx.config, webhookAllowHosts: ['127.0.0.1'] },
			webhookRetryDelaysMs: FAST_RETRIES,
		};
		guildId = outside.sandbox.guilds[0]!.id;
		auditChannel = outside.sandbox.guilds[0]!.channelIds[1]!;
		await opened.ctx.settings.update(guildId, { auditChannelId: auditChannel });
	});
	after(async () => {
		await receiver?.close();
		await run?.cleanup();
		await outside?.close();
	});

	const add = async (path: string, format = 'standard', extra: Partial<WebhookContext> = {}) =>
		addWebhook({ ...ctx, ...extra }, admin, {
			guildId,
			guildLocale: 'en-US',
			format,
			events: 'all',
			url: receiver.url(path),
		});
	const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
	const cleanUp = async () => {
		for (const { record } of await listWebhooks(ctx, admin, guildId))
			await removeWebhook(ctx, admin, guildId, record.id);
		receiver.reset();
	};
	beforeEach(cleanUp);

	test('500 twice then 200: three attempts with one webhook-id, each verified by the standardwebhooks verifier', async () => {
		const { record, secret } = await add('/three');
		assert.match(secret ?? '', /^whsec_[A-Za-z0-9+/]{32}$/, 'whsec_ and base64 of 24 bytes');
		const counted = async (outcome: string) => {
			const metric = await registry.getSingleMetric('adstats_webhook_deliveries_total')?.get();
			return (
				metric?.values.find((value) => value.labels.format === 'standard' && value.labels.outcome === outcome)?.value ??
				0
			);
		};
		const before = { delivered: await counted('delivered'), failed: await counted('failed') };
		receiver.answer({ status: 500 }, { status: 500 }, { status: 200 });
		assert.equal(
			await queueWebhookEvent(
				{ store: webhookStoreOf(ctx), now: Date.now },
				guildId,
				'alert.fired',
				event('Sends passed 1,000'),
			),
			1,
		);
		const deps = deliveryDeps(ctx);
		for (let turn = 0; turn < 3; turn += 1) {
			await settle();
			await deliverDue(deps);
		}
		const attempts = receiver.received.filter((request) => request.path === '/three');
		assert.equal(attempts.length, 3);
		const verifier = new Webhook(secret!);
		const ids = new Set<string>();
		for (const attempt of attempts) {
			const payload = verifier.verify(attempt.body, attempt.headers as Record<string, string>) as {
				type: string;
				data: { server: { id: string }; text: string; value: number; account: string };
			};
			assert.equal(payload.type, 'alert.fired');
			assert.equal(payload.data.text, 'Sends passed 1,000');
			assert.equal(payload.data.value, 1200, 'figures are numbers');
			assert.equal(payload.data.account, 'Acme');
			ids.add(String(attempt.headers['webhook-id']));
		}
		assert.equal(ids.size, 1, 'the same webhook-id on every retry');
		assert.equal((await counted('delivered')) - before.delivered, 1, 'adstats_webhook_deliveries_total');
		assert.equal((await counted('failed')) - before.failed, 2);
		assert.equal((await collect(webhookStoreOf(ctx).queued(guildId))).length, 0);
		const [listed] = await listWebhooks(ctx, admin, guildId);
		assert.equal(listed?.record.id, record.id);
		assert.deepEqual(
			listed?.deliveries.map((entry) => [entry.status, entry.outcome]),
			[
				[200, 'delivered'],
				[500, 'failed'],
				[500, 'failed'],
			],
		);
		await cleanUp();
	});

	test('410 disables the webhook at once and tells the audit channel, naming only host and last 4', async () => {
		const { record } = await add('/gone-hook-abcd');
		receiver.answer({ status: 410 });
		await queueWebhookEvent(
			{ store: webhookStoreOf(ctx), now: Date.now },
			guildId,
			'report.posted',
			event('Weekly report'),
		);
		await deliverDue(deliveryDeps(ctx));
		const stored = await webhookStoreOf(ctx).webhooks.get(guildId, record.id);
		assert.equal(stored?.disabled?.reason, 'gone');
		assert.equal(stored?.disabled?.status, 410);
		const lines = outside.sandbox.channelMessages(auditChannel).map((message) => message.content ?? '');
		const line = lines.find((text) => text.includes('was disabled'));
		assert.ok(line, lines.join('\n'));
		assert.ok(line.includes('127.0.0.1:') && line.includes('…abcd'), line);
		assert.ok(!line.includes('/gone-hook'), 'the path never shows');
		// A disabled webhook gets nothing more.
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'report.posted', event('Next'));
		await deliverDue(deliveryDeps(ctx));
		assert.equal(receiver.received.length, 1);
		await cleanUp();
	});

	test('a ping answered 410 by /webhook test disables the webhook too', async () => {
		const { record } = await add('/ping-gone', 'slack');
		receiver.answer({ status: 410, body: 'gone for good' });
		const tested = await testWebhook(ctx, admin, guildId, record.id);
		assert.equal(tested.entry.status, 410);
		assert.equal(tested.record.disabled?.reason, 'gone');
		assert.equal(tested.enabledAgain, false);

		// The receiver is fixed: a ping answered 2xx enables it again, and the audit channel is told; a failing one
		// leaves a disabled webhook as it was.
		receiver.answer({ status: 500 });
		const failing = await testWebhook(ctx, admin, guildId, record.id);
		assert.equal(failing.enabledAgain, false);
		assert.equal(failing.record.disabled?.reason, 'gone');
		receiver.answer({ status: 204 });
		const fixed = await testWebhook(ctx, admin, guildId, record.id);
		assert.equal(fixed.enabledAgain, true);
		assert.equal(fixed.record.disabled, null);
		assert.equal((await webhookStoreOf(ctx).webhooks.get(guildId, record.id))?.disabled, null, 'stored enabled');
		const lines = outside.sandbox.channelMessages(auditChannel).map((message) => message.content ?? '');
		assert.ok(
			lines.some((line) => line.includes(`enabled the webhook ${record.hint} again`) && line.includes('204')),
			lines.join('\n'),
		);
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('back'));
		await deliverDue(deliveryDeps(ctx));
		assert.equal(receiver.received.at(-1)?.path, '/ping-gone', 'events go to it again');
		await cleanUp();
	});

	test("a Discord webhook's 404 with code 10015 disables it; a plain 404 is retried", async () => {
		const { record } = await add('/discord', 'discord');
		receiver.answer({ status: 404, body: '{"message":"Unknown Webhook","code":10015}' });
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('<@123> hi'));
		await deliverDue(deliveryDeps(ctx));
		const body = JSON.parse(receiver.received[0]!.body) as {
			content: string;
			embeds: unknown[];
			allowed_mentions: unknown;
		};
		assert.deepEqual(body.allowed_mentions, { parse: [] });
		assert.equal(body.embeds.length, 1);
		assert.equal((await webhookStoreOf(ctx).webhooks.get(guildId, record.id))?.disabled?.reason, 'gone');
		await cleanUp();
	});

	test('a redirect is not followed: a failure, retried later', async () => {
		await add('/redirect', 'slack');
		receiver.answer({ status: 302, headers: { location: receiver.url('/elsewhere') } });
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('x'));
		await deliverDue(deliveryDeps(ctx));
		assert.deepEqual(
			receiver.received.map((request) => request.path),
			['/redirect'],
		);
		const body = JSON.parse(receiver.received[0]!.body) as { text: string; blocks: unknown[] };
		assert.ok(body.text.includes('x') && body.blocks.length > 0, 'slack: text and blocks');
		const [queued] = await collect(webhookStoreOf(ctx).queued(guildId));
		assert.equal(queued?.attempts, 1);
		assert.equal(queued?.lastStatus, 302);
		await cleanUp();
	});

	test('after the last retry fails the webhook is disabled and the audit channel told', async () => {
		const { record } = await add('/always-500');
		receiver.answer(...Array.from({ length: 10 }, () => ({ status: 500 })));
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('x'));
		// The host's limit (10 a second) holds attempts back: turns until all are made (slower on a busy machine).
		const until = Date.now() + 15_000;
		while (receiver.received.length < 10 && Date.now() < until) {
			await deliverDue(deliveryDeps(ctx));
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		await deliverDue(deliveryDeps(ctx));
		assert.equal(receiver.received.length, 10, 'the first attempt and 9 retries');
		const stored = await webhookStoreOf(ctx).webhooks.get(guildId, record.id);
		assert.equal(stored?.disabled?.reason, 'retriesExhausted');
		const lines = outside.sandbox.channelMessages(auditChannel).map((message) => message.content ?? '');
		assert.ok(
			lines.some((text) => text.includes('every retry failed')),
			lines.join('\n'),
		);
		await cleanUp();
	});

	test('a name that resolves to 127.0.0.1 is refused at add, and at delivery once the allow list no longer has it', async () => {
		const toLoopback = { webhookResolve: async () => [{ address: '127.0.0.1', family: 4 as const }] };
		const strict = { ...ctx, ...toLoopback, config: { ...ctx.config, webhookAllowHosts: [] } };
		await assert.rejects(
			addWebhook(strict, admin, {
				guildId,
				guildLocale: 'en-US',
				format: 'slack',
				events: 'all',
				url: `https://rebind.example:${receiver.port}/x`,
			}),
			(error: unknown) => error instanceof UserFacingError && error.key === 'webhook.refused.loopback',
		);
		await assert.rejects(
			addWebhook(strict, admin, {
				guildId,
				guildLocale: 'en-US',
				format: 'slack',
				events: 'all',
				url: 'https://localhost/x',
			}),
			(error: unknown) => error instanceof UserFacingError && error.key === 'webhook.refused.loopback',
		);
		// Added while allowed by name; the host then turns out to resolve to loopback without that allowance.
		const allowed = { ...ctx, ...toLoopback, config: { ...ctx.config, webhookAllowHosts: ['rebind.example'] } };
		const { record } = await addWebhook(allowed, admin, {
			guildId,
			guildLocale: 'en-US',
			format: 'slack',
			events: 'all',
			url: `http://rebind.example:${receiver.port}/rebind`,
		});
		const { entry } = await testWebhook(allowed, admin, guildId, record.id);
		assert.equal(entry.status, 200, 'connected to the address checked, never a second lookup of rebind.example');
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('x'));
		receiver.received.length = 0;
		await deliverDue(deliveryDeps(strict));
		assert.equal(receiver.received.length, 0, 'nothing reached the receiver');
		const log = (await listWebhooks(ctx, admin, guildId))[0]!.deliveries;
		assert.equal(log[0]?.error, 'refused');
		await cleanUp();
	});

	test('at most 5 per server, Manage Server re-checked, bad input refused without a change', async () => {
		for (let index = 0; index < 5; index += 1) await add(`/n${index}`, 'slack');
		await assert.rejects(
			add('/n5', 'slack'),
			(error: unknown) => error instanceof UserFacingError && error.key === 'webhook.tooMany',
		);
		const member: Actor = { ...admin, canManageServer: false };
		await assert.rejects(
			addWebhook(ctx, member, { guildId, guildLocale: null, format: null, events: null, url: receiver.url() }),
			(error: unknown) => error instanceof UserFacingError && error.key === 'errors.manageServerRequired',
		);
		await assert.rejects(
			addWebhook(ctx, admin, { guildId, guildLocale: null, format: 'xml', events: null, url: receiver.url() }),
			(error: unknown) => error instanceof UserFacingError && error.key === 'webhook.invalidFormat',
		);
		assert.equal((await listWebhooks(ctx, admin, guildId)).length, 5);
		await cleanUp();
	});

	test('after a LINK_SECRET rotation a webhook still delivers, and is sealed again under the new secret', async () => {
		const { record, secret } = await add('/rotated');
		const rotated = {
			...ctx,
			config: { ...ctx.config, linkSecret: randomBytes(32), linkSecretPrevious: ctx.config.linkSecret },
		};
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('r1'));
		await deliverDue(deliveryDeps(rotated));
		const resealed = await webhookStoreOf(ctx).webhooks.get(guildId, record.id);
		assert.notEqual(resealed?.kid, record.kid, 'sealed under the new secret');
		// The previous secret gone, the webhook still opens: URL and signing secret both.
		const withoutPrevious = { ...rotated, config: { ...rotated.config, linkSecretPrevious: null } };
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('r2'));
		await deliverDue(deliveryDeps(withoutPrevious));
		assert.equal(receiver.received.length, 2);
		const verifier = new Webhook(secret!);
		for (const request of receiver.received) verifier.verify(request.body, request.headers as Record<string, string>);
	});

	test('/webhook test after LINK_SECRET changed without its previous one says why, sending nothing', async () => {
		const { record } = await add('/lost-secret');
		const lost = { ...ctx, config: { ...ctx.config, linkSecret: randomBytes(32), linkSecretPrevious: null } };
		await assert.rejects(
			testWebhook(lost, admin, guildId, record.id),
			(error: unknown) => error instanceof UserFacingError && error.key === 'webhook.unreadable',
		);
		assert.equal(receiver.received.length, 0);
	});

	test("a server's purge deletes its webhooks, their queue and their logs; forgetting the adder keeps the webhook", async () => {
		const { record } = await add('/purged', 'slack');
		receiver.answer({ status: 500 });
		await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', event('p'));
		await deliverDue(deliveryDeps(ctx));
		const store = webhookStoreOf(ctx);
		assert.equal((await collect(store.queued(guildId))).length, 1);
		const forgot = await forgetMember(ctx as CoreContext, admin.userId);
		assert.equal(forgot.scrubbed.get('webhook'), 1, 'the member named as its adder is scrubbed');
		assert.ok(await store.webhooks.get(guildId, record.id), "the server's webhook stays");
		const purged = await purgeServer(ctx as CoreContext, guildId);
		assert.equal(purged.get('webhook'), 1);
		assert.equal(purged.get('webhookQueue'), 1);
		assert.equal(purged.get('webhookLog'), 1);
		assert.equal(await store.webhooks.get(guildId, record.id), null);
		assert.equal((await collect(store.queued(guildId))).length, 0);
		assert.deepEqual(await store.log(guildId, record.id), []);
		await ctx.settings.update(guildId, { auditChannelId: auditChannel });
	});

	test('the job reads the queue when something was queued here, and otherwise once a minute', async () => {
		await add('/job', 'slack');
		const store = webhookStoreOf(ctx);
		let clock = Date.now();
		const job = webhookJob(deliveryDeps(ctx, () => clock));
		const turn = async () => job.turn({ item: undefined, round: 0, dueAt: clock, stopping: false } as unknown as Turn);
		await turn(); // the first turn reads the queue
		// Queued by another process (no note here): this process leaves it to that one, or to its next minute.
		await store.putQueued({
			v: 1,
			guildId,
			webhookId: (await store.webhooks.listServer(guildId))[0]!.id,
			eventId: 'msg_elsewhere',
			type: 'alert.fired',
			occurredAt: clock,
			event: event('elsewhere'),
			attempts: 0,
			dueAt: clock,
			lastStatus: null,
		});
		await turn();
		assert.equal(receiver.received.length, 0, 'not read again within the minute');
		clock += 61_000;
		await turn();
		assert.equal(receiver.received.length, 1, 'read once the minute passed');
		await queueWebhookEvent({ store, now: () => clock }, guildId, 'alert.fired', event('here'));
		await turn();
		assert.equal(receiver.received.length, 2, 'read at once after an event was queued here');
	});

	test('the URL and the secret never reach the store or the log in clear', async () => {
		const { secret } = await add('/secret-path-Zq7w');
		const raw = await run.dumpRaw();
		assert.ok(!raw.includes('secret-path-Zq7w'), 'the URL is sealed');
		assert.ok(!raw.includes(secret!.slice(6)), 'the signing secret is sealed');
		assert.ok(!logs.join('\n').includes('secret-path'), 'no log line holds the URL');
		await cleanUp();
	});
});
