import { fileURLToPath } from 'node:url';
import { ConfigError, isManagedChild, loadConfig, loadDotEnv, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { resolveShardCount } from '../discord/shard-plan.js';
import { startBotProcesses, type BotProcesses } from '../discord/sharding-manager.js';
import { startBot, type RunningBot } from './start-bot.js';
import { startManagerMetrics } from './manager-metrics.js';
import type { RunningMetricsServer } from '../metrics/index.js';

loadDotEnv();
let config: Config;
try {
	config = loadConfig();
} catch (error) {
	if (!(error instanceof ConfigError)) throw error;
	for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
	process.exit(1);
}

if (config.interactionsPort === null && config.botProcesses > 1 && !isManagedChild(config)) await runManager(config);
else await runBot(config);

/** One process: the gateway with every shard (or those a manager assigned), or the HTTP endpoint. */
async function runBot(config: Config): Promise<void> {
	let bot: RunningBot | null = null;
	let stopRequested = false;

	const stopAndExit = (running: RunningBot) => {
		running.stop().then(
			() => process.exit(0),
			(error: unknown) => {
				running.ctx.log.error({ err: error }, 'shutdown failed');
				process.exit(1);
			},
		);
	};
	const requestStop = (reason: string) => {
		if (stopRequested) return;
		stopRequested = true;
		if (bot) {
			bot.ctx.log.info({ reason }, 'stop requested');
			stopAndExit(bot);
		}
	};
	// Installed before start-up, so a signal while logging in still ends in a clean stop and exit 0.
	for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => requestStop(signal));
	// A managed child whose manager is gone would hold its shards forever: it stops with it.
	if (isManagedChild(config)) process.once('disconnect', () => requestStop('manager gone'));

	try {
		bot = await startBot(config);
		if (stopRequested) stopAndExit(bot);
	} catch (error) {
		// Login failures carry no secret: discord.js reports an invalid token by name only.
		console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(stopRequested ? 0 : 1);
	}
}

/** BOT_PROCESSES above 1: this process only supervises; the children hold the shards. */
async function runManager(config: Config): Promise<void> {
	const log = createLogger(config.logLevel).child({ role: 'manager' });
	let processes: BotProcesses | null = null;
	let metricsServer: RunningMetricsServer | null = null;
	let stopRequested = false;
	const stopAll = async () => {
		await metricsServer?.close();
		await processes?.stop();
	};
	const stop = (signal: string) => {
		if (stopRequested) return;
		stopRequested = true;
		log.info({ signal }, 'signal received: stopping bot processes');
		if (processes) void stopAll().then(() => process.exit(0));
	};
	for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop(signal));
	try {
		const totalShards = await resolveShardCount(config);
		processes = await startBotProcesses({
			totalShards,
			processes: config.botProcesses,
			token: config.discordToken,
			log,
			file: fileURLToPath(import.meta.url),
		});
		// METRICS_PORT: the sum of every child; each child serves its own on METRICS_PORT + 1 + i.
		metricsServer = await startManagerMetrics({ config, manager: processes.manager, log });
		if (stopRequested) await stopAll().then(() => process.exit(0));
	} catch (error) {
		console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
		await stopAll();
		process.exit(stopRequested ? 0 : 1);
	}
}
