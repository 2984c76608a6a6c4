// Run by bench/memory.ts and bench/startup.ts in a child process (with --expose-gc):
// `bot` is the product bot as `npm start` builds it, `plain` a discord.js client with default caches.
// Prints one JSON line with the figures, then exits.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client, Events, GatewayIntentBits } from 'discord.js';

const [mode = 'bot', apiUrl = '', token = ''] = process.argv.slice(2);
const startedAt = Number(process.env.BENCH_STARTED_AT ?? Date.now());

function settle(): { heapMiB: number; rssMiB: number } {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with --expose-gc');
	for (let i = 0; i < 3; i++) gc();
	const usage = process.memoryUsage();
	return { heapMiB: usage.heapUsed / 2 ** 20, rssMiB: usage.rss / 2 ** 20 };
}

if (mode === 'plain') {
	const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiUrl } });
	await new Promise<void>((resolve) => {
		client.once(Events.ClientReady, () => resolve());
		void client.login(token);
	});
	const readyMs = Date.now() - startedAt;
	console.log(JSON.stringify({ readyMs, guilds: client.guilds.cache.size, ...settle() }));
	await client.destroy();
} else {
	const { startBot } = await import('../src/app/start-bot.js');
	const { loadConfig } = await import('../src/config.js');
	const dir = mkdtempSync(join(tmpdir(), 'adstats-bench-child-'));
	const bot = await startBot(
		loadConfig({
			DISCORD_TOKEN: token,
			DISCORD_API_URL: apiUrl,
			STATS_API_BASE_URL: 'http://127.0.0.1:9',
			STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
			LINK_SECRET: randomBytes(32).toString('hex'),
			CHART_RENDERER: 'local',
			LOG_LEVEL: 'warn',
		}),
		{ logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }) },
	);
	const readyMs = Date.now() - startedAt;
	// The heap once what start-up leaves for after READY (validators, the chart worker's warm-up) is loaded too.
	await bot.chartsWarmedUp;
	await new Promise((resolve) => setImmediate(resolve));
	console.log(JSON.stringify({ readyMs, guilds: bot.client?.guilds.cache.size ?? 0, ...settle() }));
	await bot.stop();
	rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
