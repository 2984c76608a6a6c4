// Two bot workers in HTTP interactions mode on one shared store, behind the Discord stand-in,
// which delivers signed interactions to their URLs in turn like a load balancer.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startBot, type RunningBot } from '../../src/app/start-bot.js';
import { loadConfig } from '../../src/config.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { registerBotCommands } from '../app/harness.js';
import { startCountingService, type CountingService } from './counting-service.js';

export interface HttpWorkers {
	sandbox: DiscordSandbox;
	workers: RunningBot[];
	service: CountingService;
	logs: string[];
	close(): Promise<void>;
}

export async function startHttpWorkers(options: {
	storeUrl: string;
	count?: number;
	guildCount?: number;
	env?: Record<string, string>;
	autoDeferMs?: number;
}): Promise<HttpWorkers> {
	const dir = mkdtempSync(join(tmpdir(), 'adstats-http-'));
	const service = await startCountingService(dir);
	const sandbox = await startDiscordSandbox({ guildCount: options.guildCount ?? 2, heartbeatIntervalMs: 5000 });
	await registerBotCommands(sandbox);
	const config = loadConfig({
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		DISCORD_PUBLIC_KEY: sandbox.publicKeyHex,
		INTERACTIONS_PORT: '0',
		STATS_API_BASE_URL: service.url,
		STORE_URL: options.storeUrl,
		LINK_SECRET: randomBytes(32).toString('hex'),
		CHART_RENDERER: 'local',
		STATS_COOLDOWN_SECONDS: '0',
		// Sampling would call the upstream on its own and muddle the request counts.
		HISTORY_SAMPLING: 'off',
		LOG_LEVEL: 'debug',
		...options.env,
	});
	const logs: string[] = [];
	const workers: RunningBot[] = [];
	try {
		for (let i = 0; i < (options.count ?? 2); i++) {
			workers.push(await startBot(config, { logDestination: captureLogs(logs), autoDeferMs: options.autoDeferMs }));
		}
	} catch (error) {
		await Promise.all(workers.map((worker) => worker.stop()));
		throw error;
	}
	sandbox.useInteractionsEndpoint(workers.map((worker) => worker.interactionsUrl!));
	return {
		sandbox,
		workers,
		service,
		logs,
		close: async () => {
			await Promise.all(workers.map((worker) => worker.stop()));
			await sandbox.close();
			await service.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

function captureLogs(lines: string[]): Writable {
	return new Writable({
		write(chunk: Buffer, _encoding, done) {
			lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
			done();
		},
	});
}
