import type { LinkStore } from '../links/link-model.js';
import { hasManageServer, serverScopeRefusal, type MemberAccess } from '../settings/access.js';
import type { ServerSettings } from '../settings/settings-record.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { memberPermissions, type BotGuilds, type GuildFacts } from './bot-guilds.js';
import { ADMINISTRATOR, userGuildManages, type UserGuild } from './discord-oauth.js';
import { readManagedServer } from './manage-access.js';
import type { WebSession } from './sessions.js';

export interface AccessDeps {
	links: Pick<LinkStore, 'getServerLink'>;
	settings: Pick<SettingsStore, 'get'>;
	botGuilds: BotGuilds;
}

export type ServerAccess =
	| { kind: 'allowed'; guild: GuildFacts; settings: ServerSettings; managesServer: boolean }
	/** The bot is not in the server, it has no key, or the member is not in it: the same 404 for all three. */
	| { kind: 'notFound' }
	/** The rules refuse: the role needed, with its name when the server still has it. */
	| { kind: 'refused'; roleId: string; roleName: string | null };

/**
 * `/stats scope:server` for a dashboard page: `server-stats-role` or Manage Server, from the member's roles
 * read with the bot token at most 60 s ago (a member who lost the role or left is refused at the next load).
 * Manage Server also comes from the session's `/users/@me/guilds` entry (owner or permissions).
 */
export async function checkServerAccess(deps: AccessDeps, session: WebSession, guildId: string): Promise<ServerAccess> {
	if (!/^\d{17,20}$/.test(guildId)) return { kind: 'notFound' };
	if ((await deps.links.getServerLink(guildId)) === null) return { kind: 'notFound' };
	const guild = await deps.botGuilds.guild(guildId);
	if (guild === null) return { kind: 'notFound' };
	const member = await deps.botGuilds.member(guildId, session.userId);
	if (member === null) return { kind: 'notFound' };
	const listed = session.guilds.find((entry) => entry.id === guildId);
	let permissions = memberPermissions(guild, session.userId, member);
	if (listed && userGuildManages(listed)) permissions |= ADMINISTRATOR;
	const access: MemberAccess = { guildId, channelId: null, memberPermissions: permissions, memberRoles: member.roles };
	const settings = await deps.settings.get(guildId);
	const refusal = serverScopeRefusal(access, settings);
	if (refusal) {
		const roleId = String(refusal.vars?.roleId ?? '');
		return { kind: 'refused', roleId, roleName: guild.roles.find((role) => role.id === roleId)?.name ?? null };
	}
	return { kind: 'allowed', guild, settings, managesServer: hasManageServer(access) };
}

/** A server on the start page: its statistics when the member may see them, its manage page when they manage it. */
export interface HomeServer {
	id: string;
	name: string;
	/** The server page opens for them (the server has a key, and the rules let them in). */
	stats: boolean;
	/** The manage page opens for them: Manage Server as the bot token reads it. */
	manages: boolean;
}

/**
 * The servers of the member's list the start page offers, in the list's order (up to 200 candidates): those whose
 * server page they may open, and those without a key yet that they manage, so the first key is set from here.
 */
export async function homeServers(deps: AccessDeps, session: WebSession): Promise<HomeServer[]> {
	const checked = await Promise.all(session.guilds.map((entry) => homeServer(deps, session, entry).catch(() => null)));
	return checked.filter((server) => server !== null);
}

async function homeServer(deps: AccessDeps, session: WebSession, entry: UserGuild): Promise<HomeServer | null> {
	const access = await checkServerAccess(deps, session, entry.id);
	if (access.kind === 'allowed') {
		// Read a moment ago for the access check: from the cache, no second call to Discord.
		const managed = await readManagedServer(deps.botGuilds, session, entry.id).catch(() => null);
		return { id: entry.id, name: access.guild.name, stats: true, manages: managed?.actor.canManageServer ?? false };
	}
	// Without a key only an admin has anything to do here. The login's list says who may be one, so the bot token
	// is not asked about every server the member is in; its read then decides, as on the manage page. Found there
	// (the bot and the member are in it) though the server page was not: the server has no key yet.
	if (access.kind !== 'notFound' || !userGuildManages(entry)) return null;
	const managed = await readManagedServer(deps.botGuilds, session, entry.id).catch(() => null);
	if (!managed?.actor.canManageServer) return null;
	return { id: entry.id, name: managed.guild.name, stats: false, manages: true };
}
