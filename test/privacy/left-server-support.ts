// The bot on the Discord stand-in with a SQLite store of its own, restartable on the same file: what the tests of
// servers the bot leaves share. Each server is given records through the features' own actions and stores.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { startBot, type RunningBot, type StartOptions } from '../../src/app/start-bot.js';
import { loadConfig } from '../../src/config.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { SERVER_GOALS_PREFIX } from '../../src/core/record-kinds.js';
import { leftServerStoreOf } from '../../src/privacy/left-server-store.js';
import type { LeftServerRecord } from '../../src/privacy/left-server-record.js';
import { setSettings } from '../../src/settings/settings-actions.js';

export const ADMIN_ID = '300000000000000001';

export interface LeftWorld {
	sandbox: DiscordSandbox;
	dir: string;
	logs: string[];
	bot: RunningBot | null;
	/** Starts the bot (again) on the same store, with `env` over the run's. */
	start(env?: Record<string, string>, options?: Pick<StartOptions, 'shards'>): Promise<RunningBot>;
	stop(): Promise<void>;
	close(): Promise<void>;
}

export async function startLeftWorld(options: { guildCount?: number; recommendedShards?: number } = {}) {
	const sandbox = await startDiscordSandbox({
		guildCount: options.guildCount ?? 2,
		recommendedShards: options.recommendedShards,
		heartbeatIntervalMs: 5000,
	});
	const dir = mkdtempSync(join(tmpdir(), 'adstats-left-'));
	const secret = randomBytes(32).toString('hex');
	const logs: string[] = [];
	const world: LeftWorld = {
		sandbox,
		dir,
		logs,
		bot: null,
		start: async (env = {}, startOptions = {}) => {
			const config = loadConfig({
				DISCORD_TOKEN: sandbox.token,
				DISCORD_APPLICATION_ID: sandbox.applicationId,
				DISCORD_API_URL: sandbox.apiUrl,
				// No test here asks the stats service for anything.
				STATS_API_BASE_URL: 'http://127.0.0.1:9',
				STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
				LINK_SECRET: secret,
				CHART_RENDERER: 'none',
				LOG_LEVEL: 'debug',
				HISTORY_SAMPLING: 'off',
				...env,
			});
			const destination = new Writable({
				write(chunk: Buffer, _encoding, done) {
					logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
					done();
				},
			});
			world.bot = await startBot(config, { logDestination: destination, shards: startOptions.shards });
			return world.bot;
		},
		stop: async () => {
			await world.bot?.stop();
			world.bot = null;
		},
		close: async () => {
			await world.stop();
			await sandbox.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
	return world;
}

/** Settings through /settings' own action and a server goal: records the server owns. */
export async function giveServerRecords(ctx: CoreContext, guildId: string): Promise<void> {
	const admin = { userId: ADMIN_ID, canManageServer: true, roleIds: [], origin: 'dashboard' } as const;
	await setSettings(ctx, admin, guildId, { 'default-days': 7 }, { guildLocale: 'en-US' });
	await ctx.stores.watch.set(`${SERVER_GOALS_PREFIX}${guildId}`, {
		v: 1,
		goals: [{ metric: 'sends', period: 'month', target: 100, setBy: ADMIN_ID, setAt: Date.now() }],
	});
}

/** Whether the server still has its settings and goal. */
export async function hasServerRecords(ctx: CoreContext, guildId: string): Promise<boolean> {
	return (
		(await ctx.stores.settings.get(guildId)) !== undefined &&
		(await ctx.stores.watch.get(`${SERVER_GOALS_PREFIX}${guildId}`)) !== undefined
	);
}

export async function markOf(ctx: CoreContext, guildId: string): Promise<LeftServerRecord | null> {
	return leftServerStoreOf(ctx).get(guildId);
}

/** Polls the store until `check` holds. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
	let held = false;
	const deadline = Date.now() + timeoutMs;
	while (!(held = await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
	if (!held) throw new Error(`timed out waiting for ${what}`);
}

/** Every byte of the store (the SQLite file and its WAL), as latin1 text to search. */
export function storeBytes(dir: string): string {
	return readdirSync(dir)
		.filter((name) => name.startsWith('bot.sqlite'))
		.map((name) => readFileSync(join(dir, name)).toString('latin1'))
		.join('\n');
}
