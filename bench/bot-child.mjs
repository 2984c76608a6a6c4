// Run by bench/process.ts in a child process with --expose-gc, without tsx: `bot` is the product bot from the
// bundle `npm start` runs (dist/, scripts/build.mjs), `plain` a discord.js client with default caches. Plain
// JavaScript on both sides, so neither pays for a TypeScript loader the other does not.
// Prints one JSON line with the figures, then exits.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate } from 'node:timers';

const [mode = 'bot', apiUrl = '', token = ''] = process.argv.slice(2);
const startedAt = Number(process.env.BENCH_STARTED_AT ?? Date.now());

function settle() {
	if (!globalThis.gc) throw new Error('run with --expose-gc');
	for (let i = 0; i < 3; i++) globalThis.gc();
	const usage = process.memoryUsage();
	return { heapMiB: usage.heapUsed / 2 ** 20, rssMiB: usage.rss / 2 ** 20 };
}

if (mode === 'plain') {
	const { Client, Events, GatewayIntentBits } = await import('discord.js');
	const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiUrl } });
	await new Promise((resolve) => {
		client.once(Events.ClientReady, () => resolve());
		void client.login(token);
	});
	const readyMs = Date.now() - startedAt;
	console.log(JSON.stringify({ readyMs, guilds: client.guilds.cache.size, ...settle() }));
	await client.destroy();
} else {
	const { startBot } = await import('../dist/start-bot.js');
	const { loadConfig } = await import('../dist/config.js');
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
