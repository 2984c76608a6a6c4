// Scale figures: heap per process with 10,000 guilds over 4 shards in 2 processes beside a
// default-cache client on the same shards; HTTP mode's acknowledgement latency beside gateway
// mode's; HTTP mode's memory after interactions from 10,000 guilds beside 0 guilds.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spreadShards } from '../src/discord/shard-plan.js';
import { registerBotCommands } from '../test/app/harness.js';
import { startDiscordSandbox, type DiscordSandbox } from '../sandbox/index.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const CHILD = fileURLToPath(new URL('./scale-child.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const GUILDS = 10_000;
const SHARDS = 4;
const PROCESSES = 2;
const ACKS = 300;
const HTTP_GUILDS_TOUCHED = GUILDS;
const CONCURRENCY = 20;

interface Heap {
	heapMiB: number;
	rssMiB: number;
	guilds: number;
}

interface Child {
	url: string | null;
	heap(): Promise<Heap>;
	stop(): Promise<void>;
}

async function startChild(args: object): Promise<Child> {
	const child: ChildProcess = fork(CHILD, [JSON.stringify(args)], {
		execArgv: ['--expose-gc', '--disable-warning=UnsupportedCacheOverwriteWarning', '--import', TSX],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const ready = await new Promise<{ url: string | null }>((resolve, reject) => {
		child.once('message', (message) => resolve(message as { url: string | null }));
		child.once('exit', (code) => reject(new Error(`scale bench child exited with ${code}`)));
	});
	return {
		url: ready.url,
		heap: () =>
			new Promise((resolve) => {
				child.once('message', (message) => resolve(message as Heap));
				child.send({ type: 'heap' });
			}),
		stop: async () => {
			child.send({ type: 'stop' });
			await exited;
		},
	};
}

function botEnv(sandbox: DiscordSandbox, dir: string, extra: Record<string, string> = {}): Record<string, string> {
	return {
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		STATS_API_BASE_URL: 'http://127.0.0.1:9',
		STORE_URL: `sqlite://${join(dir, `bot-${randomBytes(4).toString('hex')}.sqlite`)}`,
		LINK_SECRET: randomBytes(32).toString('hex'),
		CHART_RENDERER: 'none',
		HISTORY_SAMPLING: 'off',
		LOG_LEVEL: 'warn',
		...extra,
	};
}

const round = (value: number) => Math.round(value * 10) / 10;

async function shardedHeap(dir: string): Promise<BenchFigure[]> {
	const sandbox = await startDiscordSandbox({
		guildCount: GUILDS,
		recommendedShards: SHARDS,
		channelsPerGuild: 20,
		rolesPerGuild: 16,
		membersPerGuild: 5,
	});
	try {
		const plan = spreadShards(SHARDS, PROCESSES);
		// The processes run at once, as under the ShardingManager; each holds its half of the guilds.
		const bots = await Promise.all(
			plan.map((ids) => startChild({ mode: 'bot', env: botEnv(sandbox, dir), shards: { ids, total: SHARDS } })),
		);
		const botHeaps = await Promise.all(bots.map((bot) => bot.heap()));
		await Promise.all(bots.map((bot) => bot.stop()));
		const plain = await startChild({
			mode: 'plain',
			env: botEnv(sandbox, dir),
			shards: { ids: plan[0]!, total: SHARDS },
		});
		const plainHeap = await plain.heap();
		await plain.stop();
		if (botHeaps.reduce((sum, heap) => sum + heap.guilds, 0) !== GUILDS || plainHeap.guilds !== botHeaps[0]!.guilds) {
			throw new Error('not every guild arrived');
		}
		const worst = Math.max(...botHeaps.map((heap) => heap.heapMiB));
		const ratio = worst / plainHeap.heapMiB;
		return [
			{
				name: `heap per process, ${GUILDS} guilds over ${SHARDS} shards in ${PROCESSES} processes (bot, largest)`,
				value: round(worst),
				unit: 'MiB',
				baseline: round(plainHeap.heapMiB),
				goal: 'at most 0.4 of a default-cache client on the same shards (baseline)',
				met: ratio <= 0.4,
			},
			{
				name: `heap ratio per process bot / default-cache client, ${GUILDS} guilds, ${SHARDS} shards`,
				value: Math.round(ratio * 1000) / 1000,
				unit: 'ratio',
				baseline: 1,
				goal: '<= 0.4',
				met: ratio <= 0.4,
			},
		];
	} finally {
		await sandbox.close();
	}
}

/** First-response times of /help, one at a time, as the stand-in saw them. */
async function ackTimes(sandbox: DiscordSandbox): Promise<number[]> {
	const times: number[] = [];
	for (let i = 0; i < ACKS; i++) {
		const handle = sandbox.dispatchCommand({ name: 'help', guildId: sandbox.guildIds[i % sandbox.guildIds.length]! });
		times.push((await handle.firstResponse()).at);
	}
	return times.slice(20); // the first ones warm up both sides
}

async function ackLatency(dir: string): Promise<BenchFigure[]> {
	const sandbox = await startDiscordSandbox({ guildCount: 4, preloadValidators: true });
	try {
		await registerBotCommands(sandbox);
		const gateway = await startChild({ mode: 'bot', env: botEnv(sandbox, dir), shards: null });
		await sandbox.waitForIdentify();
		const viaGateway = await ackTimes(sandbox);
		await gateway.stop();
		const http = await startChild({
			mode: 'bot',
			env: botEnv(sandbox, dir, { INTERACTIONS_PORT: '0', DISCORD_PUBLIC_KEY: sandbox.publicKeyHex }),
			shards: null,
		});
		sandbox.useInteractionsEndpoint(http.url);
		const viaHttp = await ackTimes(sandbox);
		await http.stop();
		const figure = (p: number): BenchFigure => {
			const value = percentile(viaHttp, p);
			const baseline = percentile(viaGateway, p);
			return {
				name: `acknowledgement p${p}, HTTP mode (baseline: gateway mode), ${viaHttp.length} /help`,
				value: round(value),
				unit: 'ms',
				baseline: round(baseline),
				goal: 'not slower than gateway mode',
				met: value <= baseline,
			};
		};
		return [figure(50), figure(99)];
	} finally {
		await sandbox.close();
	}
}

/** An HTTP worker's heap after answering one interaction from each of `guildCount` guilds (DMs for 0). */
async function httpHeap(dir: string, guildCount: number): Promise<Heap> {
	const sandbox = await startDiscordSandbox({ guildCount: Math.max(guildCount, 1) });
	try {
		await registerBotCommands(sandbox);
		const worker = await startChild({
			mode: 'bot',
			env: botEnv(sandbox, dir, { INTERACTIONS_PORT: '0', DISCORD_PUBLIC_KEY: sandbox.publicKeyHex }),
			shards: null,
		});
		sandbox.useInteractionsEndpoint(worker.url);
		let next = 0;
		const lane = async () => {
			while (next < HTTP_GUILDS_TOUCHED) {
				const i = next++;
				const guildId = guildCount === 0 ? null : sandbox.guildIds[i]!;
				await sandbox.dispatchCommand({ name: 'help', guildId }).firstResponse();
			}
		};
		await Promise.all(Array.from({ length: CONCURRENCY }, lane));
		const heap = await worker.heap();
		await worker.stop();
		return heap;
	} finally {
		await sandbox.close();
	}
}

async function httpMemory(dir: string): Promise<BenchFigure[]> {
	const none = await httpHeap(dir, 0);
	const many = await httpHeap(dir, GUILDS);
	return [
		{
			name: `heap of an HTTP worker after ${HTTP_GUILDS_TOUCHED} interactions from ${GUILDS} guilds (baseline: from 0 guilds)`,
			value: round(many.heapMiB),
			unit: 'MiB',
			baseline: round(none.heapMiB),
			goal: 'the same within 5 MiB: HTTP mode keeps no guild cache',
			met: Math.abs(many.heapMiB - none.heapMiB) <= 5,
		},
	];
}

export async function runScaleBench(): Promise<BenchFigure[]> {
	const dir = mkdtempSync(join(tmpdir(), 'adstats-bench-scale-'));
	try {
		return [...(await shardedHeap(dir)), ...(await ackLatency(dir)), ...(await httpMemory(dir))];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
