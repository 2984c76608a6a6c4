import {
	DiscordAPIError,
	Routes,
	type APIGuild,
	type APIGuildChannel,
	type APIGuildMember,
	type GuildChannelType,
	type REST,
} from 'discord.js';

/** What every guild channel carries; `position` is on all of them, though not on discord.js's base type. */
type RawChannel = APIGuildChannel<GuildChannelType> & { position?: number };
import { ADMINISTRATOR } from './auth/discord-oauth.js';

/** Roles and guild facts are read again after this long: a member who lost a role is refused within it. */
export const GUILD_FACTS_TTL_MS = 60_000;
/** Entries kept per cache; the oldest goes first. */
const CACHE_LIMIT = 5000;

export interface GuildFacts {
	id: string;
	name: string;
	ownerId: string;
	preferredLocale: string | null;
	roles: RoleFacts[];
}

export interface RoleFacts {
	id: string;
	name: string;
	permissions: bigint;
	/** Higher sits higher in the server's list. */
	position: number;
	/** A bot's or an integration's own role: nobody can be given it. */
	managed: boolean;
}

/** A channel of the server as the bot sees it (`GET /guilds/{id}/channels`). */
export interface ChannelFacts {
	id: string;
	name: string;
	/** Discord's channel type: 0 text, 2 voice, 4 category, 5 announcement, 13 stage, 15 forum. */
	type: number;
	position: number;
	/** The category it sits in; null at the top level. */
	parentId: string | null;
}

/** `fresh`: ask Discord now, not the 60 s cache (a POST's permission check); the answer refreshes the cache. */
export interface ReadOptions {
	fresh?: boolean;
}

/** The member as the bot sees them; null when they are not in the server. */
export interface MemberFacts {
	roles: string[];
	/** How the server shows them: nickname, display name or username. */
	name: string | null;
}

/** What the dashboard reads with the bot token; null: the bot is not in that server. */
export interface BotGuilds {
	guild(guildId: string, options?: ReadOptions): Promise<GuildFacts | null>;
	/** Null when the bot or the member is not in the server. */
	member(guildId: string, userId: string, options?: ReadOptions): Promise<MemberFacts | null>;
	/** The server's channels, in no particular order; null when the bot is not in the server. */
	channels(guildId: string, options?: ReadOptions): Promise<ChannelFacts[] | null>;
}

/** Guild-level permissions of a member from @everyone and their roles; the owner holds all of them. */
export function memberPermissions(guild: GuildFacts, userId: string, member: MemberFacts): bigint {
	if (guild.ownerId === userId) return ADMINISTRATOR;
	const held = new Set([guild.id, ...member.roles]);
	let bits = 0n;
	for (const role of guild.roles) if (held.has(role.id)) bits |= role.permissions;
	return bits;
}

/**
 * Guild, member and channel reads through the bot's REST client (its rate limits shared with every other
 * bot-token call), each cached for at most 60 s and shared by concurrent page loads.
 */
export function createBotGuilds(rest: REST, options: { now?: () => number } = {}): BotGuilds {
	const now = options.now ?? Date.now;
	const guilds = ttlCache<GuildFacts | null>(now);
	const members = ttlCache<MemberFacts | null>(now);
	const channels = ttlCache<ChannelFacts[] | null>(now);
	return {
		guild: (guildId, read) =>
			guilds.get(guildId, read, async () => {
				const raw = await absentOn404(() => rest.get(Routes.guild(guildId)) as Promise<APIGuild>);
				if (raw === null) return null;
				return {
					id: raw.id,
					name: raw.name,
					ownerId: raw.owner_id,
					preferredLocale: raw.preferred_locale ?? null,
					roles: raw.roles.map((role) => ({
						id: role.id,
						name: role.name,
						permissions: BigInt(role.permissions),
						position: role.position,
						managed: role.managed,
					})),
				};
			}),
		member: (guildId, userId, read) =>
			members.get(`${guildId}:${userId}`, read, async () => {
				const raw = await absentOn404(() => rest.get(Routes.guildMember(guildId, userId)) as Promise<APIGuildMember>);
				if (raw === null) return null;
				return { roles: raw.roles, name: raw.nick ?? raw.user?.global_name ?? raw.user?.username ?? null };
			}),
		channels: (guildId, read) =>
			channels.get(guildId, read, async () => {
				const raw = await absentOn404(() => rest.get(Routes.guildChannels(guildId)) as Promise<RawChannel[]>);
				if (raw === null) return null;
				return raw.map((channel) => ({
					id: channel.id,
					name: channel.name ?? '',
					type: channel.type,
					position: channel.position ?? 0,
					parentId: channel.parent_id ?? null,
				}));
			}),
	};
}

/** Unknown guild or member (404), or a guild the bot cannot see (403), reads as absent. */
async function absentOn404<T>(read: () => Promise<T>): Promise<T | null> {
	try {
		return await read();
	} catch (error) {
		if (error instanceof DiscordAPIError && (error.status === 404 || error.status === 403)) return null;
		throw error;
	}
}

function ttlCache<T>(now: () => number) {
	const entries = new Map<string, { at: number; value: Promise<T> }>();
	return {
		get(key: string, read: ReadOptions | undefined, load: () => Promise<T>): Promise<T> {
			const entry = entries.get(key);
			if (entry && !read?.fresh && now() - entry.at < GUILD_FACTS_TTL_MS) return entry.value;
			const value = load();
			entries.delete(key);
			entries.set(key, { at: now(), value });
			// A failed read is not remembered: the next load asks again.
			value.catch(() => entries.get(key)?.value === value && entries.delete(key));
			if (entries.size > CACHE_LIMIT) entries.delete(entries.keys().next().value as string);
			return value;
		},
	};
}
