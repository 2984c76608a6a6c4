import { PermissionFlagsBits } from 'discord.js';
import type { FacingMessage } from '../i18n/index.js';
import type { ServerSettings } from './settings-record.js';

/** What the rules read: the member as Discord describes them in the interaction at hand, never a cache. */
export interface MemberAccess {
	guildId: string | null;
	channelId: string | null;
	memberPermissions: bigint | null;
	memberRoles: readonly string[] | null;
}

type AccessSettings = Pick<ServerSettings, 'serverStatsRoleId' | 'shareRoleId' | 'shareChannelId'>;

/** Administrator grants every permission, Manage Server included, whatever Discord lists. */
export function hasManageServer(member: Pick<MemberAccess, 'memberPermissions'>): boolean {
	const permissions = member.memberPermissions ?? 0n;
	return (permissions & (PermissionFlagsBits.ManageGuild | PermissionFlagsBits.Administrator)) !== 0n;
}

function holdsRoleOrManages(member: MemberAccess, roleId: string | null): boolean {
	return roleId === null || hasManageServer(member) || (member.memberRoles ?? []).includes(roleId);
}

/** `scope:server` (`/stats`, `/export`, Share of a server reply): null when allowed, else the refusal. */
export function serverScopeRefusal(member: MemberAccess, settings: AccessSettings): FacingMessage | null {
	if (member.guildId === null || holdsRoleOrManages(member, settings.serverStatsRoleId)) return null;
	return { key: 'refusal.serverStatsRole', vars: { roleId: settings.serverStatsRoleId } };
}

export type PublicPostVerdict =
	| { kind: 'allowed' }
	/** The member lacks the share role: nothing may be shown, privately or not. */
	| { kind: 'role'; refusal: FacingMessage }
	/** Public posts go to another channel: nothing public here. */
	| { kind: 'channel'; channelId: string };

/** A public post (`share:true`, Share) by this member, in the channel of the interaction. */
export function publicPostVerdict(member: MemberAccess, settings: AccessSettings): PublicPostVerdict {
	if (member.guildId === null) return { kind: 'allowed' };
	if (!holdsRoleOrManages(member, settings.shareRoleId)) {
		return { kind: 'role', refusal: { key: 'refusal.shareRole', vars: { roleId: settings.shareRoleId } } };
	}
	if (settings.shareChannelId !== null && member.channelId !== settings.shareChannelId) {
		return { kind: 'channel', channelId: settings.shareChannelId };
	}
	return { kind: 'allowed' };
}

/** Whether a Share button is worth offering: it would be refused if pressed now. */
export function mayPostHere(member: MemberAccess, settings: AccessSettings): boolean {
	return publicPostVerdict(member, settings).kind === 'allowed';
}
