import { DiscordAPIError, Routes, type APIGuild, type APIGuildMember, type REST } from 'discord.js';
import { ADMINISTRATOR } from './discord-oauth.js';

/** Roles and guild facts are read again after this long: a member who lost a role is refused within it. */
export const GUILD_FACTS_TTL_MS = 60_000;
/** Entries kept per cache; the oldest goes first. */
const CACHE_LIMIT = 5000;

export interface GuildFacts {
	id: string;
	name: string;
	ownerId: string;
	preferredLocale: string | null;
	roles: { id: string; name: string; permissions: bigint }[];
}

/** The member as the bot sees them; null when they are not in the server. */
export interface MemberFacts {
	roles: string[];
}

/** What the dashboard reads with the bot token; null: the bot is not in that server. */
export interface BotGuilds {
	guild(guildId: string): Promise<GuildFacts | null>;
	/** Null when the bot or the member is not in the server. */
	member(guildId: string, userId: string): Promise<MemberFacts | null>;
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
 * Guild and member reads through the bot's REST client (its rate limits shared with every other bot-token
 * call), each cached for at most 60 s and shared by concurrent page loads.
 */
export function createBotGuilds(rest: REST, options: { now?: () => number } = {}): BotGuilds {
	const now = options.now ?? Date.now;
	const guilds = ttlCache<GuildFacts | null>(now);
	const members = ttlCache<MemberFacts | null>(now);
	return {
		guild: (guildId) =>
			guilds.get(guildId, async () => {
				const raw = await absentOn404(() => rest.get(Routes.guild(guildId)) as Promise<APIGuild>);
				if (raw === null) return null;
				return {
					id: raw.id,
					name: raw.name,
					ownerId: raw.owner_id,
					preferredLocale: raw.preferred_locale ?? null,
					roles: raw.roles.map((role) => ({ id: role.id, name: role.name, permissions: BigInt(role.permissions) })),
				};
			}),
		member: (guildId, userId) =>
			members.get(`${guildId}:${userId}`, async () => {
				const raw = await absentOn404(() => rest.get(Routes.guildMember(guildId, userId)) as Promise<APIGuildMember>);
				return raw === null ? null : { roles: raw.roles };
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
		get(key: string, load: () => Promise<T>): Promise<T> {
			const entry = entries.get(key);
			if (entry && now() - entry.at < GUILD_FACTS_TTL_MS) return entry.value;
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
