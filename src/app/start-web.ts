import type { Config } from '../config.js';
import { botRestOf, createBotRest } from '../discord/bot-rest.js';
import type { BotContext } from '../discord/context.js';
import type { Logger } from '../logger.js';
import type { CoreContext } from '../core/core-context.js';
import { createWebApp, type WebDeps } from '../web/app.js';
import { createBotGuilds } from '../web/bot-guilds.js';
import { createOAuthClient } from '../web/auth/discord-oauth.js';
import { createWebStore } from '../web/auth/sessions.js';
import { startWebServer, type RunningWebServer } from '../web/server.js';

const PROBE_KEY = 'healthz-probe';

/**
 * The dashboard's dependencies over the bot's context: the core's services (the same store, links, stats client,
 * history, claims and Discord calls the slash commands' actions use) and the web's own.
 */
export function webDepsOf(ctx: CoreContext, log: Logger = ctx.log): WebDeps {
	const { config } = ctx;
	return {
		config,
		links: ctx.links,
		stats: ctx.stats,
		renderer: ctx.renderer,
		history: ctx.history,
		coordinator: ctx.coordinator,
		stores: ctx.stores,
		settings: ctx.settings,
		cooldowns: ctx.cooldowns,
		guildApi: ctx.guildApi,
		metrics: ctx.metrics,
		now: ctx.now,
		log,
		web: createWebStore(ctx.stores.web),
		// The bot's own client, so the dashboard's reads draw from the budget every process shares.
		botGuilds: createBotGuilds(botRestOf(ctx.guildApi) ?? createBotRest(config)),
		oauth: createOAuthClient({
			apiUrl: config.discordApiUrl,
			clientId: config.applicationId ?? '',
			clientSecret: config.discordClientSecret ?? '',
			redirectUri: `${new URL(config.webPublicUrl ?? 'http://127.0.0.1').origin}/auth/callback`,
		}),
		storeAnswers: async () => {
			await ctx.stores.web.get(PROBE_KEY);
			return true;
		},
	};
}

/** Serves the dashboard on WEB_HOST:WEB_PORT; null when WEB_PORT is unset. */
export async function startDashboard(config: Config, ctx: BotContext, log: Logger): Promise<RunningWebServer | null> {
	if (config.webPort === null) return null;
	const webLog = log.child({ part: 'web' });
	const server = await startWebServer(createWebApp(webDepsOf(ctx, webLog)), {
		host: config.webHost,
		port: config.webPort,
	});
	webLog.info({ url: server.url, publicUrl: config.webPublicUrl }, 'dashboard listening');
	return server;
}
