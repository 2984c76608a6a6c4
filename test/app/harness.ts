// Everything an end-to-end test of the bot needs, on loopback: the bundled stats service on a
// temporary SQLite file (or another upstream), the local Discord stand-in and the real bot.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { registerCommands } from '../../src/discord/register.js';
import { startBot, type RunningBot } from '../../src/app/start-bot.js';
import { loadConfig } from '../../src/config.js';
import { openStatsStore, seedDemoAccount, startStatsServer, type StatsStore } from '../../src/service/index.js';
import { startDiscordSandbox, type DiscordSandbox, type InteractionHandle } from '../../sandbox/index.js';

export const ADMIN_PERMISSIONS = (1n << 5n).toString(); // Manage Server

export interface Harness {
	sandbox: DiscordSandbox;
	bot: RunningBot;
	/** The bundled service, unless the test brought its own upstream. */
	service: { url: string; store: StatsStore; close(): Promise<void> } | null;
	dir: string;
	botToken: string;
	linkSecretHex: string;
	/** Every log line the bot wrote. */
	logs: string[];
	/** The clock the bot and the bundled service share (epoch ms): pinned when the test gave one. */
	now: () => number;
	close(): Promise<void>;
}

/** Registers the bot's commands with the stand-in, as `npm run register` does with Discord. */
export function registerBotCommands(sandbox: DiscordSandbox, guildId: string | null = null) {
	return registerCommands({
		apiUrl: sandbox.apiUrl,
		token: sandbox.token,
		applicationId: sandbox.applicationId,
		guildId,
		definitions: commandDefinitions,
	});
}

/** Captures pino's JSON lines in memory. */
function captureLogs(lines: string[]): Writable {
	return new Writable({
		write(chunk: Buffer, _encoding, done) {
			lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
			done();
		},
	});
}

export async function startHarness(
	options: {
		upstreamUrl?: string;
		env?: Record<string, string>;
		guildCount?: number;
		/** Pins the clock of the bot and the bundled service, so "today" cannot change under a test at 00:00 UTC. */
		now?: () => number;
	} = {},
) {
	const now = options.now ?? Date.now;
	const dir = mkdtempSync(join(tmpdir(), 'adstats-e2e-'));
	let service: Harness['service'] = null;
	if (!options.upstreamUrl) {
		const store = openStatsStore(join(dir, 'service.sqlite'));
		const server = await startStatsServer({
			store,
			port: 0,
			rateLimitPerMinute: 0,
			now: options.now ? () => new Date(now()) : undefined,
		});
		service = {
			url: server.url,
			store,
			close: async () => {
				await server.close();
				store.close();
			},
		};
	}
	const sandbox = await startDiscordSandbox({ guildCount: options.guildCount ?? 2, heartbeatIntervalMs: 5000 });
	const linkSecretHex = randomBytes(32).toString('hex');
	const config = loadConfig({
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		STATS_API_BASE_URL: options.upstreamUrl ?? service?.url,
		STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
		LINK_SECRET: linkSecretHex,
		CHART_RENDERER: 'local',
		STATS_COOLDOWN_SECONDS: '0',
		LOG_LEVEL: 'debug',
		// Sampling catches up the day's hours at start; tests that want it turn it on.
		HISTORY_SAMPLING: 'off',
		...options.env,
	});
	await registerBotCommands(sandbox);
	const logs: string[] = [];
	const bot = await startBot(config, { logDestination: captureLogs(logs), now: options.now });
	const harness: Harness = {
		sandbox,
		bot,
		service,
		dir,
		botToken: sandbox.token,
		linkSecretHex,
		logs,
		now,
		close: async () => {
			await bot.stop();
			await sandbox.close();
			await service?.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
	return harness;
}

/** Creates an account with ~120 days of activity in the bundled service and returns its key. */
export function createAccount(harness: Harness, name: string): string {
	if (!harness.service) throw new Error('this harness has no bundled service');
	return seedDemoAccount(harness.service.store, { name, days: 120, now: new Date(harness.now()) }).apiKey;
}

/** Plays `/link` (or `/server-key set`) and its modal; resolves with the final private reply. */
export async function linkViaModal(
	harness: Harness,
	apiKey: string,
	context: { userId?: string; guildId?: string | null; permissions?: string; server?: boolean } = {},
) {
	const { server = false, ...where } = context;
	const command = server
		? harness.sandbox.dispatchCommand({ name: 'server-key', subcommand: 'set', ...where })
		: harness.sandbox.dispatchCommand({ name: 'link', ...where });
	const modal = await command.firstResponse();
	if (modal.type !== 9) return { modal, message: await command.finalMessage() };
	const submit = harness.sandbox.dispatchModalSubmit({
		customId: String(modal.data.custom_id),
		fields: { 'api-key': apiKey },
		...where,
	});
	return { modal, message: await submit.finalMessage(), submit };
}

/** The first response must reach Discord inside its 3 s window, whatever the bot then does. */
export async function assertAcknowledgedInTime(handle: InteractionHandle): Promise<number> {
	const first = await handle.firstResponse();
	if (first.status >= 300 || first.at > 3000) {
		throw new Error(`first response came ${Math.round(first.at)} ms after dispatch with status ${first.status}`);
	}
	return first.at;
}

/** Every byte the bot's store wrote (the SQLite file and its WAL), as latin1 text to search. */
export function readStoreBytes(harness: Harness): string {
	return readdirSync(harness.dir)
		.filter((name) => name.startsWith('bot.sqlite'))
		.map((name) => readFileSync(join(harness.dir, name)).toString('latin1'))
		.join('\n');
}

export const EPHEMERAL = 64;
