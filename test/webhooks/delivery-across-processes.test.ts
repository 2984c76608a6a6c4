// Outgoing webhooks across real bot processes (test/webhooks/delivery-process.ts) on one Redis, and on one
// PostgreSQL, each running the real webhooks job on a clock the parent sets: two processes started together on a
// queue of 20 events send each exactly once, and a process killed after a first attempt that failed leaves the
// retry to a new process, which sends it with the same webhook-id and body, once. Every request is checked with
// the standardwebhooks package's own verifier.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { Actor } from '../../src/core/actor.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { addWebhook, listWebhooks } from '../../src/webhooks/webhook-actions.js';
import type { WebhookContext } from '../../src/webhooks/webhook-context.js';
import { queueWebhookEvent } from '../../src/webhooks/webhook-events.js';
import { WEBHOOK_SCAN_MS } from '../../src/webhooks/webhook-job.js';
import type { QueuedDelivery, WebhookEventData } from '../../src/webhooks/webhook-record.js';
import { webhookStoreOf } from '../../src/webhooks/webhook-store.js';
import { startOutside, startStoreRun, storeTargets, type Outside, type StoreRun } from '../actions/store-runs.js';
import { uniqueSnowflake, usable } from '../discord/shared-stores.js';
import type { DeliveryProcessSetup } from './delivery-process.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

const PROCESS = new URL('./delivery-process.ts', import.meta.url).pathname;
/**
 * Where the children's clock stands at first; only the parent moves it. A week ahead: every process also runs the
 * webhooks job openBotServices starts on the real clock, and that one must never find a delivery due.
 */
const NOW = Date.now() + 7 * 86_400_000;
/** The injected retry schedule: a retry 30 s after each failure, nine times (the schedule's own length). */
const RETRY_DELAYS_MS = Array.from({ length: 9 }, () => 30_000);
const EVENTS = 20;

const event = (text: string): WebhookEventData => ({
	server: { id: '1', name: 'Guild' },
	account: 'Acme',
	title: 'Alert: sends milestone',
	text,
	figures: { value: 1200, threshold: 1000 },
	details: { kind: 'sends-milestone' },
});

interface Child {
	child: ChildProcess;
	claims: { key: string; won: boolean }[];
	/** The webhook lines it logged ("webhook delivered", "webhook retry due"…). */
	lines: string[];
	/** Resolves when it stopped cleanly; rejects when it exited before. */
	done: Promise<void>;
	setClock(now: number): void;
}

/** Forks a process on the run's store with its clock at `now`; resolves once its services are open. */
async function startProcess(run: StoreRun, now: number): Promise<Child> {
	const child = fork(PROCESS, [], { execArgv: ['--import', 'tsx'] });
	const claims: Child['claims'] = [];
	const lines: string[] = [];
	let ready = () => undefined as void;
	const opened = new Promise<void>((resolve) => (ready = resolve));
	const done = new Promise<void>((resolve, reject) => {
		child.on(
			'message',
			(message: { ready?: true; claim?: { key: string; won: boolean }; line?: string; done?: true }) => {
				if (message.ready) ready();
				if (message.claim) claims.push(message.claim);
				if (message.line) lines.push(message.line);
				if (message.done) resolve();
			},
		);
		child.once('exit', (code, signal) => reject(new Error(`delivery process exited (${code ?? signal}) early`)));
	});
	done.catch(() => undefined);
	const setup: DeliveryProcessSetup = {
		env: { ...run.env, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
		namespacePrefix: run.namespacePrefix,
		now,
		retryDelaysMs: RETRY_DELAYS_MS,
	};
	child.send({ setup });
	await Promise.race([opened, done]);
	return { child, claims, lines, done, setClock: (at) => child.connected && child.send({ now: at }) };
}

async function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
	await once(child, 'exit');
	clearTimeout(timer);
}

async function stopped(children: Child[]): Promise<void> {
	for (const { child } of children) if (child.connected) child.send({ stop: true });
	await Promise.all(children.map(async ({ done }) => done));
	await Promise.all(children.map(async ({ child }) => exited(child)));
}

const sleep = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
	const all: T[] = [];
	for await (const item of items) all.push(item);
	return all;
}

/** Polls `check` every 100 ms until it holds; fails naming `what` after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
		await sleep(100);
	}
}

/**
 * What the receiver got on `path`, each request verified with the webhook's signing secret by a verifier whose
 * clock reads `at` (the children's clock: the verifier refuses a timestamp 5 minutes off its own time).
 */
function verified(receiver: Receiver, path: string, secret: string, at: number) {
	const verifier = new Webhook(secret);
	const verify = (request: Received) => {
		const realNow = Date.now;
		Date.now = () => at;
		try {
			return verifier.verify(request.body, request.headers as Record<string, string>);
		} finally {
			Date.now = realNow;
		}
	};
	return receiver.received
		.filter((request) => request.path === path)
		.map((request) => {
			const payload = verify(request) as {
				type: string;
				data: { text: string; value: number };
			};
			return {
				id: String(request.headers['webhook-id']),
				timestamp: String(request.headers['webhook-timestamp']),
				body: request.body,
				payload,
			};
		});
}

for (const target of await storeTargets()) {
	if (target.name === 'sqlite') continue;
	const title = 'outgoing webhooks delivered by two bot processes';
	if (!usable(target, title)) continue;

	describe(`${title} on ${target.name}`, () => {
		let outside: Outside;
		let run: StoreRun;
		let receiver: Receiver;
		let ctx: WebhookContext;
		const children: ChildProcess[] = [];
		const admin: Actor = { userId: uniqueSnowflake('53'), canManageServer: true, roleIds: [], origin: 'discord' };

		before(async () => {
			outside = await startOutside({ guildCount: 2 });
			run = await startStoreRun(target, outside);
			receiver = await startReceiver();
			const opened = await run.open();
			ctx = { ...(opened.ctx as CoreContext), config: { ...opened.ctx.config, webhookAllowHosts: ['127.0.0.1'] } };
		});
		after(async () => {
			for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			await receiver?.close();
			await run?.cleanup();
			await outside?.close();
		});

		const add = async (guildId: string, path: string) => {
			const { secret } = await addWebhook(ctx, admin, {
				guildId,
				guildLocale: null,
				format: 'standard',
				events: 'all',
				url: receiver.url(path),
			});
			return secret!;
		};
		const queued = async (guildId: string): Promise<QueuedDelivery[]> => collect(webhookStoreOf(ctx).queued(guildId));

		it(`started together on ${EVENTS} queued events, they send each once`, { timeout: 60_000 }, async (t) => {
			const guildId = outside.sandbox.guilds[0]!.id;
			const secret = await add(guildId, '/once');
			for (let index = 0; index < EVENTS; index += 1)
				await queueWebhookEvent(
					{ store: webhookStoreOf(ctx), now: () => NOW },
					guildId,
					'alert.fired',
					event(`e${index}`),
				);

			const pair = await Promise.all([0, 1].map(async () => startProcess(run, NOW)));
			children.push(...pair.map(({ child }) => child));
			const startAt = Date.now() + 300;
			for (const { child } of pair) child.send({ go: startAt });
			// The clock moves a scan's interval every half second, so an attempt put off for its host's turn comes due
			// (and stays within the verifier's 5 minutes of the first attempts for the test's 20 s).
			let clock = NOW;
			let movedAt = Date.now();
			try {
				await until(async () => {
					if (receiver.received.length >= EVENTS && (await queued(guildId)).length === 0) return true;
					if (Date.now() - movedAt >= 500) {
						movedAt = Date.now();
						clock += WEBHOOK_SCAN_MS;
						for (const child of pair) child.setClock(clock);
					}
					return false;
				}, 'the queue emptied');
				// Time for a stray second send to land before the processes stop.
				await sleep(300);
			} finally {
				await stopped(pair);
			}

			const requests = verified(receiver, '/once', secret, clock);
			assert.equal(requests.length, EVENTS, 'one request per event');
			assert.equal(new Set(requests.map((request) => request.id)).size, EVENTS, 'twenty distinct webhook-ids');
			assert.deepEqual(
				requests.map((request) => request.payload.data.text).sort(),
				Array.from({ length: EVENTS }, (_, index) => `e${index}`).sort(),
			);
			for (const { payload } of requests) assert.equal(payload.type, 'alert.fired');

			const delivered = pair.map(({ lines }) => lines.filter((line) => line === 'webhook delivered').length);
			t.diagnostic(`deliveries by process: ${delivered.join(' + ')}`);
			assert.equal(delivered[0]! + delivered[1]!, EVENTS, 'one "webhook delivered" line per event');
			// Each attempt was claimed by exactly one process, and both processes raced for the same attempts.
			const wins = new Map<string, number>();
			for (const claim of pair.flatMap(({ claims }) => claims))
				wins.set(claim.key, (wins.get(claim.key) ?? 0) + (claim.won ? 1 : 0));
			assert.ok(
				[...wins.values()].every((count) => count === 1),
				`one winner per attempt claim: ${JSON.stringify(pair.map(({ claims }) => claims))}`,
			);
			const keysOf = (claims: Child['claims']) => new Set(claims.map((claim) => claim.key));
			const [first, second] = pair.map(({ claims }) => keysOf(claims)) as [Set<string>, Set<string>];
			const both = [...first].filter((key) => second.has(key)).length;
			t.diagnostic(`attempt claims tried by both processes: ${both}`);
			assert.ok(both > 0, 'the two processes raced for the same attempts');
		});

		it(
			'a process killed after a failed attempt leaves the retry to a new process: same id and body, once',
			{
				timeout: 60_000,
			},
			async () => {
				const guildId = outside.sandbox.guilds[1]!.id;
				const secret = await add(guildId, '/restart');
				receiver.answer({ status: 500 });
				await queueWebhookEvent({ store: webhookStoreOf(ctx), now: () => NOW }, guildId, 'report.posted', event('r'));

				const first = await startProcess(run, NOW);
				children.push(first.child);
				first.child.send({ go: Date.now() });
				// Settled in the store, and its log line told (the kill must not race the line).
				await until(
					async () => first.lines.length > 0 && (await queued(guildId))[0]?.attempts === 1,
					'the first attempt settled',
				);
				const [waiting] = await queued(guildId);
				assert.equal(
					waiting?.dueAt,
					NOW + RETRY_DELAYS_MS[0]!,
					'the retry due 30 s after the failure, on the clock given',
				);
				assert.equal(waiting?.lastStatus, 500);
				// A crash, not a stop: nothing of the process runs after this.
				first.child.kill('SIGKILL');
				await exited(first.child);
				assert.equal(first.child.signalCode, 'SIGKILL');
				assert.deepEqual(first.lines, ['webhook retry due']);
				assert.equal(
					verified(receiver, '/restart', secret, NOW + RETRY_DELAYS_MS[0]!).length,
					1,
					'one attempt before the crash',
				);

				// Started afterwards on the same store, its clock where the retry is due.
				const second = await startProcess(run, NOW + RETRY_DELAYS_MS[0]!);
				children.push(second.child);
				second.child.send({ go: Date.now() });
				try {
					await until(async () => (await queued(guildId)).length === 0, 'the retry delivered');
					// Further scans, past the idle minute: nothing is left to send.
					for (const ahead of [WEBHOOK_SCAN_MS, 2 * WEBHOOK_SCAN_MS, 90_000]) {
						second.setClock(NOW + RETRY_DELAYS_MS[0]! + ahead);
						await sleep(300);
					}
				} finally {
					await stopped([second]);
				}

				const requests = verified(receiver, '/restart', secret, NOW + RETRY_DELAYS_MS[0]!);
				assert.equal(requests.length, 2, 'the first attempt and one retry, nothing more');
				assert.equal(requests[1]!.id, requests[0]!.id, 'the same webhook-id on the retry');
				assert.equal(requests[1]!.body, requests[0]!.body, 'the same body on the retry');
				assert.equal(requests[0]!.payload.type, 'report.posted');
				// Signed at each attempt's time on the clock given: the crashed process's, then the new one's.
				assert.deepEqual(
					requests.map((request) => Number(request.timestamp)),
					[NOW, NOW + RETRY_DELAYS_MS[0]!].map((at) => Math.floor(at / 1000)),
				);
				assert.deepEqual(second.lines, ['webhook delivered']);
				const [listed] = await listWebhooks(ctx, admin, guildId);
				assert.deepEqual(
					listed?.deliveries.map((entry) => [entry.status, entry.outcome, entry.at]),
					[
						[200, 'delivered', NOW + RETRY_DELAYS_MS[0]!],
						[500, 'failed', NOW],
					],
				);
			},
		);
	});
}
