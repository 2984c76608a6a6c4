import type { CoreContext } from '../core/core-context.js';
import type { BotGuilds } from './bot-guilds.js';
import type { OAuthClient } from './auth/discord-oauth.js';
import type { WebStore } from './auth/sessions.js';

/**
 * What the dashboard reads and does: the core's services (the same the bot's handlers hold, so a route calls the
 * same core actions as a slash command) and the web's own. Built once at start-up, once per test.
 */
export interface WebDeps extends CoreContext {
	web: WebStore;
	oauth: OAuthClient;
	/** Guilds, members and channels read with the bot token. */
	botGuilds: BotGuilds;
	/** True when the store answers (GET /healthz). */
	storeAnswers(): Promise<boolean>;
}
