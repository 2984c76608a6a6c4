// Which servers the bot is in, as the gateway tells it: GUILD_DELETE without `unavailable` (removed, or the server
// deleted), GUILD_CREATE (added, or back after an outage), and each shard's READY with every guild of the shard.
// `unavailable: true` on GUILD_DELETE is an outage and says nothing about membership.
import { DiscordAPIError, Routes, type REST } from 'discord.js';
import type { GuildApi } from '../guild-api.js';
import { botRestOf } from './bot-rest.js';

const UNKNOWN_GUILD = 10004;

export interface GuildPresenceHandlers {
	removed(guildId: string): void;
	added(guildId: string): void;
	ready(ready: { shardId: number; shardCount: number; guildIds: ReadonlySet<string> }): void;
}

interface Packet {
	t?: string | null;
	d?: unknown;
}

/**
 * Reads raw dispatches with the shard they came on. A GUILD_CREATE of a guild its shard's READY listed is the
 * start-up's (READY's check covers it), not an addition; one after a removal in the same session is.
 */
export function guildPresenceWatcher(handlers: GuildPresenceHandlers, shardCount: number) {
	const readyGuilds = new Map<number, Set<string>>();
	return (packet: Packet, shardId: number): void => {
		const data = (packet.d ?? {}) as { id?: unknown; unavailable?: unknown; guilds?: unknown; shard?: unknown };
		if (packet.t === 'READY') {
			const guildIds = new Set(
				(Array.isArray(data.guilds) ? (data.guilds as { id?: unknown }[]) : []).flatMap((guild) =>
					typeof guild.id === 'string' ? [guild.id] : [],
				),
			);
			const shard = Array.isArray(data.shard) ? (data.shard as unknown[]) : [];
			const count = typeof shard[1] === 'number' ? shard[1] : shardCount;
			readyGuilds.set(shardId, new Set(guildIds));
			handlers.ready({ shardId, shardCount: count, guildIds });
			return;
		}
		if (typeof data.id !== 'string') return;
		if (packet.t === 'GUILD_DELETE' && data.unavailable !== true) {
			readyGuilds.get(shardId)?.delete(data.id);
			handlers.removed(data.id);
		} else if (packet.t === 'GUILD_CREATE' && data.unavailable !== true) {
			if (readyGuilds.get(shardId)?.has(data.id)) return;
			handlers.added(data.id);
		}
	};
}

/** `GET /guilds/{id}` with the bot's token: 200 in, 10004 or 403 out, anything else unknown. */
export async function botPresenceIn(rest: REST, guildId: string): Promise<'in' | 'out' | 'unknown'> {
	try {
		await rest.get(Routes.guild(guildId));
		return 'in';
	} catch (error) {
		if (error instanceof DiscordAPIError && (Number(error.code) === UNKNOWN_GUILD || error.status === 403))
			return 'out';
		return 'unknown';
	}
}

/** The same over the REST client behind a GuildApi; `unknown` when it has none (a test's own GuildApi). */
export function botPresence(api: GuildApi): (guildId: string) => Promise<'in' | 'out' | 'unknown'> {
	const rest = botRestOf(api);
	return async (guildId) => (rest ? botPresenceIn(rest, guildId) : 'unknown');
}

/** Discord's largest page of `GET /users/@me/guilds`. */
const GUILDS_PAGE = 200;

/**
 * Every server the bot is in, from `GET /users/@me/guilds` page by page (HTTP interactions mode has no READY to
 * list them). Rejects when any page fails: a partial list would name servers the bot is still in as left.
 */
export async function listBotGuildIds(rest: REST): Promise<Set<string>> {
	const guildIds = new Set<string>();
	let after: string | null = null;
	for (;;) {
		const query = new URLSearchParams({ limit: String(GUILDS_PAGE) });
		if (after !== null) query.set('after', after);
		const page = (await rest.get(Routes.userGuilds(), { query })) as { id?: unknown }[];
		if (!Array.isArray(page)) throw new TypeError('GET /users/@me/guilds answered no list');
		let last: string | null = null;
		for (const guild of page) {
			if (typeof guild.id !== 'string') continue;
			guildIds.add(guild.id);
			if (last === null || BigInt(guild.id) > BigInt(last)) last = guild.id;
		}
		if (page.length < GUILDS_PAGE || last === null || last === after) return guildIds;
		after = last;
	}
}

/** The same over the REST client behind a GuildApi; null when it has none (a test's own GuildApi). */
export function botGuildList(api: GuildApi): (() => Promise<Set<string>>) | null {
	const rest = botRestOf(api);
	return rest ? async () => listBotGuildIds(rest) : null;
}
