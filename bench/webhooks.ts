// 1,000 webhooks firing at once: every attempt within its host's limit (10 a second per host, per process), and
// /stats no slower while they go out. /stats is timed through the real bot and the Discord stand-in, before the
// burst and during it, in the same run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Actor } from '../src/core/actor.js';
import { addWebhook } from '../src/webhooks/webhook-actions.js';
import { deliveryDeps } from '../src/webhooks/webhook-context.js';
import { queueWebhookEvent } from '../src/webhooks/webhook-events.js';
import { HOST_ATTEMPTS_PER_SECOND } from '../src/webhooks/host-limit.js';
import { drainDue } from '../src/webhooks/webhook-job.js';
import { MAX_WEBHOOKS_PER_SERVER } from '../src/webhooks/webhook-record.js';
import { webhookStoreOf } from '../src/webhooks/webhook-store.js';
import { createAccount, linkViaModal, startHarness } from '../test/app/harness.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const WEBHOOKS = 1000;
/** Receiving hosts (one port each): the limit is per host, so the burst drains at HOSTS × 10 a second. */
const HOSTS = 10;
const STATS_ROUNDS = 150;
const MEMBER = '340000000000000001';

interface Host {
	port: number;
	/** Epoch ms of every request received. */
	at: number[];
	server: Server;
}

async function startHost(): Promise<Host> {
	const at: number[] = [];
	const server = createServer((request, response) => {
		// When the request arrived, not when its body was read: the receiver's own turns add no bunching.
		at.push(Date.now());
		request.resume();
		request.on('end', () => response.writeHead(204).end());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { port: (server.address() as AddressInfo).port, at, server };
}

/** The most requests a host received in any one second (a sliding window over its arrival times). */
function busiestSecond(at: readonly number[]): number {
	const sorted = [...at].sort((a, b) => a - b);
	let most = 0;
	let start = 0;
	for (let end = 0; end < sorted.length; end += 1) {
		while (sorted[end]! - sorted[start]! >= 1000) start += 1;
		most = Math.max(most, end - start + 1);
	}
	return most;
}

async function queuedLeft(store: ReturnType<typeof webhookStoreOf>): Promise<boolean> {
	for await (const _ of store.queued()) return true;
	return false;
}

export async function runWebhooksBench(): Promise<BenchFigure[]> {
	const hosts = await Promise.all(Array.from({ length: HOSTS }, startHost));
	const harness = await startHarness({ guildCount: 1, env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
	try {
		await linkViaModal(harness, createAccount(harness, 'webhook-bench'), { userId: MEMBER });
		const stats = async (): Promise<number> => {
			const started = performance.now();
			await harness.sandbox.dispatchCommand({ name: 'stats', userId: MEMBER }).finalMessage(10_000);
			return performance.now() - started;
		};
		const timeStats = async (rounds: number) => {
			const times: number[] = [];
			for (let round = 0; round < rounds; round += 1) times.push(await stats());
			return times;
		};
		await timeStats(20); // warm the cache and the code paths

		const ctx = harness.bot.ctx;
		const admin: Actor = { userId: MEMBER, canManageServer: true, roleIds: [], origin: 'discord' };
		const guilds = Array.from(
			{ length: WEBHOOKS / MAX_WEBHOOKS_PER_SERVER },
			(_, index) => `45${String(index).padStart(16, '0')}`,
		);
		let added = 0;
		for (const guildId of guilds) {
			for (let slot = 0; slot < MAX_WEBHOOKS_PER_SERVER; slot += 1) {
				const host = hosts[added % HOSTS]!;
				await addWebhook(ctx, admin, {
					guildId,
					guildLocale: null,
					format: 'standard',
					events: 'all',
					url: `http://127.0.0.1:${host.port}/hook/${added}`,
				});
				added += 1;
			}
		}
		const baseline = await timeStats(STATS_ROUNDS);

		const store = webhookStoreOf(ctx);
		const event = {
			server: { id: '', name: 'bench' },
			account: null,
			title: 'Alert',
			text: 'x',
			figures: { value: 1 },
			details: {},
		};
		const started = Date.now();
		for (const guildId of guilds) await queueWebhookEvent({ store, now: Date.now }, guildId, 'alert.fired', event);
		// The job's own turn: passes until nothing waits for its host's turn (drainDue).
		const drain = drainDue(deliveryDeps(ctx));
		const during = await timeStats(STATS_ROUNDS);
		await Promise.race([drain, new Promise((resolve) => setTimeout(resolve, 120_000))]);
		// The bot's own webhook job runs beside this drain and may hold the last attempts: until the queue is empty.
		const deadline = Date.now() + 60_000;
		while (Date.now() < deadline && (await queuedLeft(store))) await new Promise((resolve) => setTimeout(resolve, 100));
		const drainedSeconds = (Date.now() - started) / 1000;
		const delivered = hosts.reduce((sum, host) => sum + host.at.length, 0);
		const busiest = Math.max(...hosts.map((host) => busiestSecond(host.at)));
		const p95 = percentile(during, 95);
		const baseP95 = percentile(baseline, 95);
		return [
			{
				name: `webhooks delivered of ${WEBHOOKS} firing at once (${HOSTS} hosts)`,
				value: delivered,
				unit: '',
				baseline: WEBHOOKS,
				goal: `all ${WEBHOOKS}`,
				met: delivered === WEBHOOKS,
			},
			{
				name: 'most attempts one host received in any second',
				value: busiest,
				unit: '',
				baseline: HOST_ATTEMPTS_PER_SECOND,
				goal: `<= ${HOST_ATTEMPTS_PER_SECOND} (the per-host limit)`,
				met: busiest <= HOST_ATTEMPTS_PER_SECOND,
			},
			{
				name: 'time to deliver them all',
				value: drainedSeconds,
				unit: 's',
				baseline: WEBHOOKS / (HOSTS * HOST_ATTEMPTS_PER_SECOND),
				goal: 'reported (the limit sets the pace)',
				met: null,
			},
			{
				name: '/stats p50 while they go out',
				value: percentile(during, 50),
				unit: 'ms',
				baseline: percentile(baseline, 50),
				goal: 'reported',
				met: null,
			},
			{
				name: '/stats p95 while they go out',
				value: p95,
				unit: 'ms',
				baseline: baseP95,
				goal: 'within 1.5x of before, or 5 ms',
				met: p95 <= Math.max(baseP95 * 1.5, baseP95 + 5),
			},
		];
	} finally {
		await harness.close();
		for (const host of hosts) {
			host.server.closeAllConnections();
			await new Promise<void>((resolve) => host.server.close(() => resolve()));
		}
	}
}
