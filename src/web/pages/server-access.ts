import type { LinkStore } from '../../links/link-model.js';
import { hasManageServer, serverScopeRefusal, type MemberAccess } from '../../settings/access.js';
import type { ServerSettings } from '../../settings/settings-record.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import { memberPermissions, type BotGuilds, type GuildFacts } from '../bot-guilds.js';
import { ADMINISTRATOR, userGuildManages } from '../auth/discord-oauth.js';
import type { WebSession } from '../auth/sessions.js';

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

/** The servers of the member's list they may open, in the list's order (up to 200 candidates). */
export async function visibleServers(deps: AccessDeps, session: WebSession): Promise<{ id: string; name: string }[]> {
	const checked = await Promise.all(
		session.guilds.map(async (entry) => {
			const access = await checkServerAccess(deps, session, entry.id).catch(() => null);
			return access?.kind === 'allowed' ? { id: entry.id, name: access.guild.name } : null;
		}),
	);
	return checked.filter((server) => server !== null);
}

/**
 * The servers of the member's list that the bot is in, that have no key yet, and that the member manages (owner or
 * Manage Server in the login's list; the manage page checks again with the bot token): where the start page offers
 * "Set up", so an admin who has just added the bot finds the form that gives the server its key.
 */
export async function serversToSetUp(deps: AccessDeps, session: WebSession): Promise<{ id: string; name: string }[]> {
	const checked = await Promise.all(
		session.guilds.filter(userGuildManages).map(async (entry) => {
			if ((await deps.links.getServerLink(entry.id)) !== null) return null;
			const guild = await deps.botGuilds.guild(entry.id);
			return guild === null ? null : { id: entry.id, name: guild.name };
		}),
	);
	return checked.filter((server) => server !== null);
}
