// The whole product with the dashboard, offline: the bundled stats service with demo accounts and their
// history, the Discord stand-in (REST, gateway, OAuth2) and the real bot started as `npm start` starts it
// with WEB_PORT, so the dashboard runs in-process. Used by the browser test and by the demo.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startBot, type RunningBot } from '../../src/app/start-bot.js';
import { loadConfig } from '../../src/config.js';
import { generateDemoEvents, openStatsStore, seedDemoAccount, startStatsServer } from '../../src/service/index.js';
import { registerBotCommands } from '../../test/app/harness.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { seedDemoHistory } from './seed-history.js';

export const MANAGE_SERVER = (1n << 5n).toString();
const HISTORY_DAYS = 400;

/** The people of the demo server: a member with the stats role, one without it, and an admin. */
export const WEB_PEOPLE = {
	member: '330000000000000001',
	outsider: '330000000000000002',
	admin: '330000000000000003',
} as const;

export interface WebStack extends DashboardSite {
	bot: RunningBot;
	roleId: string;
	roleName: string;
	close(): Promise<void>;
}

/** A free loopback port: WEB_PUBLIC_URL must be known before the dashboard starts. */
export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/** The dashboard's side of a running stack: where it is, and the server its people belong to. */
export interface DashboardSite {
	sandbox: DiscordSandbox;
	/** The dashboard's origin, WEB_PUBLIC_URL. */
	webUrl: string;
	guildId: string;
}

/**
 * Seats WEB_PEOPLE on `guildId` of a running bot: the member holds the stats role and links `memberKey`, the admin
 * (Manage Server through the Managers role) links `serverKey` for the server, the outsider has neither; the
 * server's figures need the role.
 */
export async function seatDashboardPeople(
	sandbox: DiscordSandbox,
	ctx: RunningBot['ctx'],
	options: { guildId: string; guildName?: string; memberKey: string; serverKey: string; memberLocale?: string },
): Promise<{ roleId: string; roleName: string }> {
	const { guildId } = options;
	if (options.guildName) sandbox.setGuildName(guildId, options.guildName);
	const roleName = 'Stats Team';
	const roleId = sandbox.addRole(guildId, { name: roleName, permissions: 0n }).id;
	sandbox.setMember(guildId, WEB_PEOPLE.member, { roles: [roleId] });
	sandbox.setUser(WEB_PEOPLE.member, { username: 'nova', globalName: 'Nova', locale: options.memberLocale ?? 'en-US' });
	sandbox.setMember(guildId, WEB_PEOPLE.outsider, { roles: [] });
	sandbox.setUser(WEB_PEOPLE.outsider, { username: 'sam', globalName: 'Sam' });
	// Through a role, as the bot token reads it: the dashboard's forms take Manage Server from nothing else.
	const managersId = sandbox.addRole(guildId, { name: 'Managers', permissions: MANAGE_SERVER }).id;
	sandbox.setMember(guildId, WEB_PEOPLE.admin, { roles: [managersId] });
	sandbox.setUser(WEB_PEOPLE.admin, { username: 'ada', globalName: 'Ada' });
	await ctx.links.linkUser(WEB_PEOPLE.member, options.memberKey);
	await ctx.links.linkServer(guildId, options.serverKey, WEB_PEOPLE.admin);
	await ctx.settings.update(guildId, { serverStatsRoleId: roleId });
	return { roleId, roleName };
}

/**
 * The environment of a bot run offline against the stand-in `sandbox`: the local chart renderer, no cooldown, no
 * sampler, a fresh LINK_SECRET, and the dashboard on `dashboardPort` of loopback (OAuth2 through the stand-in).
 */
export function offlineBotEnv(
	sandbox: DiscordSandbox,
	options: { statsApiUrl: string; storeFile: string; dashboardPort: number },
): Record<string, string> {
	return {
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		STATS_API_BASE_URL: options.statsApiUrl,
		STORE_URL: `sqlite://${options.storeFile}`,
		LINK_SECRET: randomBytes(32).toString('hex'),
		CHART_RENDERER: 'local',
		STATS_COOLDOWN_SECONDS: '0',
		HISTORY_SAMPLING: 'off',
		LOG_LEVEL: 'info',
		WEB_PORT: String(options.dashboardPort),
		WEB_PUBLIC_URL: `http://127.0.0.1:${options.dashboardPort}`,
		DISCORD_CLIENT_SECRET: sandbox.clientSecret,
		DISCORD_OAUTH_URL: sandbox.oauthAuthorizeUrl,
	};
}

/** The whole product with the dashboard on a server of its own, for the browser test and `scripts/demo/web.ts`. */
export async function startWebStack(
	options: { guildName?: string; memberLocale?: string; logs?: string[] } = {},
): Promise<WebStack> {
	const work = mkdtempSync(join(tmpdir(), 'adstats-web-stack-'));
	const now = new Date();
	const store = openStatsStore(join(work, 'service.sqlite'));
	const accounts = { member: { name: 'Nova Ads', seed: 7 }, server: { name: 'Pixel Community', seed: 11 } };
	const memberKey = seedDemoAccount(store, { ...accounts.member, days: HISTORY_DAYS, now }).apiKey;
	const serverKey = seedDemoAccount(store, { ...accounts.server, days: HISTORY_DAYS, now }).apiKey;
	const service = await startStatsServer({ store, port: 0, rateLimitPerMinute: 0 });
	const sandbox = await startDiscordSandbox({ guildCount: 1, heartbeatIntervalMs: 5000 });
	const guildId = sandbox.guildIds[0]!;
	const port = await freePort();
	const config = loadConfig(
		offlineBotEnv(sandbox, { statsApiUrl: service.url, storeFile: join(work, 'bot.sqlite'), dashboardPort: port }),
	);
	await registerBotCommands(sandbox, guildId);
	const logs = options.logs ?? [];
	const bot = await startBot(config, {
		logDestination: new Writable({
			write(chunk: Buffer, _encoding, done) {
				logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
				done();
			},
		}),
	});
	const { ctx } = bot;
	for (const account of Object.values(accounts)) {
		await seedDemoHistory(ctx.stores.history, {
			user: account.name,
			events: generateDemoEvents({ days: HISTORY_DAYS, seed: account.seed, now }),
			now,
			days: HISTORY_DAYS - 1,
			historyDays: ctx.config.historyDays,
		});
	}
	const { roleId, roleName } = await seatDashboardPeople(sandbox, ctx, { ...options, guildId, memberKey, serverKey });
	return {
		sandbox,
		bot,
		webUrl: `http://127.0.0.1:${port}`,
		guildId,
		roleId,
		roleName,
		close: async () => {
			await bot.stop();
			await sandbox.close();
			await service.close();
			store.close();
			rmSync(work, { recursive: true, force: true });
		},
	};
}
