import type { Actor } from '../../core/actor.js';
import { hasManageServer } from '../../settings/access.js';
import {
	memberPermissions,
	type BotGuilds,
	type ChannelFacts,
	type GuildFacts,
	type ReadOptions,
} from '../bot-guilds.js';
import type { MentionNames } from '../html.js';
import { notFoundError } from '../http-error.js';
import type { WebSession } from '../auth/sessions.js';

/** A server as the manage page and its forms see it, with the member as a core action takes them. */
export interface ManagedServer {
	guildId: string;
	guild: GuildFacts;
	actor: Actor;
}

/**
 * The member in a server, read with the bot token: from the 60 s cache for a page, `fresh` for a POST (a demoted
 * admin's open tab must fail). Manage Server comes from that read only (owner, @everyone and the member's roles,
 * Administrator), never from the session's `/users/@me/guilds` entry, which is as old as the login. The same 404 as
 * the server page when the bot or the member is not there; a server without a key may be managed (its first key is
 * set here).
 */
export async function readManagedServer(
	botGuilds: Pick<BotGuilds, 'guild' | 'member'>,
	session: Pick<WebSession, 'userId'>,
	guildId: string,
	read: ReadOptions = {},
): Promise<ManagedServer> {
	if (!/^\d{17,20}$/.test(guildId)) throw notFoundError();
	const [guild, member] = await Promise.all([
		botGuilds.guild(guildId, read),
		botGuilds.member(guildId, session.userId, read),
	]);
	if (guild === null || member === null) throw notFoundError();
	const actor: Actor = {
		userId: session.userId,
		canManageServer: hasManageServer({ memberPermissions: memberPermissions(guild, session.userId, member) }),
		roleIds: member.roles,
		origin: 'dashboard',
	};
	return { guildId, guild, actor };
}

/**
 * The type a channel a form names has: none that any use accepts. The core action then refuses it with the words
 * its command uses for a channel of the wrong kind.
 */
const NOT_IN_SERVER = -1;

/**
 * A channel id from a form as a core action takes it, with its type from the server's channel list (read again
 * when the id is not in the cached one: it may be new). Null when the field was empty.
 */
export async function chosenChannel(
	botGuilds: Pick<BotGuilds, 'channels'>,
	guildId: string,
	id: string,
): Promise<{ id: string; type: number } | null> {
	if (id === '') return null;
	const find = (channels: ChannelFacts[] | null) => channels?.find((channel) => channel.id === id) ?? null;
	const found = find(await botGuilds.channels(guildId)) ?? find(await botGuilds.channels(guildId, { fresh: true }));
	return { id, type: found?.type ?? NOT_IN_SERVER };
}

/** The server's roles and channels by id, so `<#id>` and `<@&id>` in a text read as names on a page. */
export function mentionNamesOf(guild: GuildFacts, channels: readonly ChannelFacts[] | null): MentionNames {
	return {
		roles: new Map(guild.roles.map((role) => [role.id, `@${role.name}`])),
		channels: new Map((channels ?? []).map((channel) => [channel.id, `#${channel.name}`])),
	};
}
