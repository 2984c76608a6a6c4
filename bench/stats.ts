// Benchmarks of /stats through the real bot and the local Discord stand-in, with the bundled
// stats service on loopback: latency (cache hit, cache miss, the bot's own share) and how many
// upstream requests a burst costs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { commandModules } from '../commands/index.js';
import { registerCommands } from '../src/bot/register.js';
import { startBot, type RunningBot } from '../src/bot/start.js';
import { loadConfig } from '../src/config.js';
import { openStatsStore, seedDemoAccount, startStatsServer } from '../src/service/index.js';
import type { StatsClient } from '../src/stats-api/index.js';
import { startDiscordSandbox, type DiscordSandbox } from '../test/sandbox/index.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const SEQUENTIAL = 200;
const BURST = 100;

interface Timed {
	upstreamMs: number;
	renderMs: number;
}

/** Wraps the bot's stats source and renderer to time what is not the bot's own work. */
function instrument(bot: RunningBot): Timed {
	const timed: Timed = { upstreamMs: 0, renderMs: 0 };
	const stats = bot.ctx.stats;
	const fetchSnapshot = stats.fetchSnapshot.bind(stats);
	stats.fetchSnapshot = async (key) => {
		const start = performance.now();
		try {
			return await fetchSnapshot(key);
		} finally {
			timed.upstreamMs += performance.now() - start;
		}
	};
	const renderer = bot.ctx.renderer;
	const render = renderer.render.bind(renderer);
	renderer.render = async (...args) => {
		const start = performance.now();
		try {
			return await render(...args);
		} finally {
			timed.renderMs += performance.now() - start;
		}
	};
	return timed;
}

async function startBenchBot(sandbox: DiscordSandbox, env: Record<string, string>): Promise<RunningBot> {
	const config = loadConfig({
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		CHART_RENDERER: 'local',
		STATS_COOLDOWN_SECONDS: '0',
		LOG_LEVEL: 'warn',
		...env,
	});
	const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
	return startBot(config, { logDestination: quiet });
}

async function linkMember(sandbox: DiscordSandbox, userId: string, apiKey: string): Promise<void> {
	const command = sandbox.dispatchCommand({ name: 'link', userId });
	await command.firstResponse();
	const message = await sandbox
		.dispatchModalSubmit({ customId: 'link:submit', fields: { 'api-key': apiKey }, userId })
		.finalMessage(10_000);
	if (!message.content.startsWith('Linked')) throw new Error(`link failed: ${message.content}`);
}

/** Sequential /stats: end-to-end ms and the bot's own ms (end to end minus upstream and chart). */
async function measureSequential(sandbox: DiscordSandbox, timed: Timed, userId: string, count: number) {
	const total: number[] = [];
	const own: number[] = [];
	for (let i = 0; i < count + 10; i++) {
		timed.upstreamMs = 0;
		timed.renderMs = 0;
		const handle = sandbox.dispatchCommand({ name: 'stats', userId });
		const message = await handle.finalMessage(10_000);
		if (message.files.length !== 1) throw new Error(`stats answered without a chart: ${message.content}`);
		const elapsed = handle.edits.at(-1)!.at;
		if (i < 10) continue; // warm-up
		total.push(elapsed);
		own.push(elapsed - timed.upstreamMs - timed.renderMs);
	}
	return { total, own };
}

async function measureBurst(sandbox: DiscordSandbox, stats: StatsClient, userIds: string[]): Promise<number> {
	const before = stats.upstreamRequests;
	const handles = userIds.map((userId) => sandbox.dispatchCommand({ name: 'stats', userId }));
	await Promise.all(handles.map((handle) => handle.finalMessage(30_000)));
	return stats.upstreamRequests - before;
}

export async function runStatsBench(): Promise<BenchFigure[]> {
	const dir = mkdtempSync(join(tmpdir(), 'adstats-bench-'));
	const store = openStatsStore(join(dir, 'service.sqlite'));
	const service = await startStatsServer({ store, port: 0, rateLimitPerMinute: 0 });
	const sandbox = await startDiscordSandbox({ guildCount: 1, preloadValidators: true });
	await registerCommands({
		apiUrl: sandbox.apiUrl,
		token: sandbox.token,
		applicationId: sandbox.applicationId,
		guildId: null,
		modules: commandModules,
	});
	const env = {
		STATS_API_BASE_URL: service.url,
		STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
		LINK_SECRET: randomBytes(32).toString('hex'),
	};
	const figures: BenchFigure[] = [];
	try {
		const burstUsers = Array.from({ length: BURST }, (_, i) => String(500000000000000000n + BigInt(i)));
		const member = '500000000000001000';

		let bot = await startBenchBot(sandbox, { ...env, STATS_CACHE_TTL_SECONDS: '60' });
		let timed = instrument(bot);
		await linkMember(sandbox, member, seedDemoAccount(store, { name: 'bench member' }).apiKey);
		for (const [i, userId] of burstUsers.entries()) {
			await linkMember(sandbox, userId, seedDemoAccount(store, { name: `burst ${i}`, days: 30 }).apiKey);
		}
		const hit = await measureSequential(sandbox, timed, member, SEQUENTIAL);
		await bot.stop();

		// A zero TTL makes every /stats a miss, and shows single-flight alone merging a burst.
		bot = await startBenchBot(sandbox, { ...env, STATS_CACHE_TTL_SECONDS: '0' });
		timed = instrument(bot);
		const miss = await measureSequential(sandbox, timed, member, SEQUENTIAL);
		const stats = bot.ctx.stats as StatsClient;
		const oneAccount = await measureBurst(sandbox, stats, Array(BURST).fill(member));
		const manyAccounts = await measureBurst(sandbox, stats, burstUsers);
		await bot.stop();
		sandbox.assertNoViolations();

		figures.push(
			{
				name: '/stats cache hit, end to end p50',
				value: percentile(hit.total, 50),
				unit: 'ms',
				baseline: percentile(miss.total, 50),
				goal: 'baseline: the cache-miss p50 in the same run',
				met: null,
			},
			{
				name: '/stats cache hit, end to end p99',
				value: percentile(hit.total, 99),
				unit: 'ms',
				baseline: percentile(miss.total, 99),
				goal: '< 25 ms (baseline: cache-miss p99)',
				met: percentile(hit.total, 99) < 25,
			},
			{
				name: '/stats cache miss, end to end p50',
				value: percentile(miss.total, 50),
				unit: 'ms',
				baseline: null,
				goal: 'report',
				met: null,
			},
			{
				name: '/stats cache miss, end to end p99',
				value: percentile(miss.total, 99),
				unit: 'ms',
				baseline: null,
				goal: 'report',
				met: null,
			},
			{
				name: "/stats bot's own share p99 (cache hit)",
				value: percentile(hit.own, 99),
				unit: 'ms',
				baseline: percentile(hit.total, 99),
				goal: '< 5 ms (baseline: the whole p99)',
				met: percentile(hit.own, 99) < 5,
			},
			{
				name: "/stats bot's own share p99 (cache miss)",
				value: percentile(miss.own, 99),
				unit: 'ms',
				baseline: percentile(miss.total, 99),
				goal: '< 5 ms (baseline: the whole p99)',
				met: percentile(miss.own, 99) < 5,
			},
			{
				name: `upstream requests for ${BURST} concurrent /stats, one account`,
				value: oneAccount,
				unit: 'requests',
				baseline: BURST,
				goal: 'exactly 1 (baseline: one per /stats)',
				met: oneAccount === 1,
			},
			{
				name: `upstream requests for ${BURST} concurrent /stats, ${BURST} accounts`,
				value: manyAccounts,
				unit: 'requests',
				baseline: BURST,
				goal: `exactly ${BURST}`,
				met: manyAccounts === BURST,
			},
		);
	} finally {
		await sandbox.close();
		await service.close();
		store.close();
		rmSync(dir, { recursive: true, force: true });
	}
	return figures;
}
