import { UserFacingError } from '../errors.js';
import { publicPostVerdict, serverScopeRefusal, type MemberAccess } from './access.js';
import { DEFAULT_SETTINGS, type ServerSettings } from './settings-record.js';
import type { SettingsStore } from './settings-store.js';

/** The settings that apply to an interaction: its server's, or the defaults outside servers. */
export function settingsOf(
	ctx: { settings: Pick<SettingsStore, 'get'> },
	guildId: string | null,
): Promise<ServerSettings> {
	return guildId === null ? Promise.resolve(DEFAULT_SETTINGS) : ctx.settings.get(guildId);
}

/** Before anything of the server's account is fetched: `scope:server` needs the server-stats role. */
export function requireScopeAllowed(member: MemberAccess, settings: ServerSettings, scope: string): void {
	if (scope !== 'server') return;
	const refusal = serverScopeRefusal(member, settings);
	if (refusal) throw new UserFacingError(refusal.key, refusal.vars);
}

/**
 * `share:true`: throws when the member may not post publicly at all; otherwise says where the answer goes.
 * Outside the share channel the answer is private, with a note naming the channel.
 */
export function shareDestination(
	member: MemberAccess,
	settings: ServerSettings,
): { kind: 'public' } | { kind: 'private'; channelId: string } {
	const verdict = publicPostVerdict(member, settings);
	if (verdict.kind === 'role') throw new UserFacingError(verdict.refusal.key, verdict.refusal.vars);
	return verdict.kind === 'channel' ? { kind: 'private', channelId: verdict.channelId } : { kind: 'public' };
}

/** A Share press, checked against the member as they are now: nothing public unless every rule allows it. */
export function requireSharePress(member: MemberAccess, settings: ServerSettings, scope: string): void {
	requireScopeAllowed(member, settings, scope);
	const verdict = publicPostVerdict(member, settings);
	if (verdict.kind === 'role') throw new UserFacingError(verdict.refusal.key, verdict.refusal.vars);
	if (verdict.kind === 'channel') throw new UserFacingError('refusal.shareChannel', { channelId: verdict.channelId });
}
