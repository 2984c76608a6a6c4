import { RESTEvents, type Client, type REST } from 'discord.js';
import type { Logger } from '../logger.js';

/** Statuses from Discord that mean the bot is misconfigured (401/403) or too busy (429). */
const WATCHED = new Set([401, 403, 429]);

export interface DiscordRefusals {
	/** Counts per status since start. */
	readonly counts: ReadonlyMap<number, number>;
}

/**
 * Counts and logs Discord's 401/403/429 answers: Discord bans a bot's IP for a
 * while after too many of them, so they must be visible long before that happens.
 */
export function watchDiscordRefusals(client: Client, log: Logger): DiscordRefusals {
	return watchRestRefusals(client.rest, { log });
}

/**
 * The same for any @discordjs/rest client: the gateway client's `client.rest`, or the REST an HTTP-interactions
 * bot answers with. `onStatus` sees every refused status (metrics take it: `metrics.recordDiscordRestResponse`).
 */
export function watchRestRefusals(
	rest: REST,
	options: { log?: Logger; onStatus?: (status: number) => void },
): DiscordRefusals {
	const { log, onStatus } = options;
	const counts = new Map<number, number>();
	rest.on(RESTEvents.Response, (request, response) => {
		if (!WATCHED.has(response.status)) return;
		const count = (counts.get(response.status) ?? 0) + 1;
		counts.set(response.status, count);
		onStatus?.(response.status);
		// The route only: interaction paths carry a token.
		log?.warn({ status: response.status, count, method: request.method, route: request.route }, 'discord refused');
	});
	if (log) {
		rest.on(RESTEvents.RateLimited, (info) => {
			log.warn({ route: info.route, global: info.global, retryAfterMs: info.retryAfter }, 'discord rate limit');
		});
	}
	return { counts };
}
