import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { UserFacingError } from '../errors.js';
import type { GuildApi } from '../guild-api.js';
import { translator } from '../i18n/index.js';
import { auditTime, postAudit, type AuditDeps } from './audit.js';
import { settingsWithDeletionsApplied } from './check-resources.js';
import { describeChanges, SETTING_NAMES, SETTING_OPTIONS, type SettingName } from './describe-settings.js';
import { serverLanguage } from './language.js';
import { parseSettingsInput, type ParsedSettingsChange, type SettingsInput } from './read-options.js';
import type { ServerSettings } from './settings-record.js';
import type { SettingsStore } from './settings-store.js';

// A server's `/settings`, from the slash command or the dashboard's manage page: the same checks, store writes and
// audit lines for both.

/** What the settings actions use; a CoreContext has all of it. */
export interface SettingsActionContext extends AuditDeps {
	settings: SettingsStore;
	guildApi: Pick<GuildApi, 'postMessage' | 'roleState' | 'describeRole' | 'channelState'>;
	now?: () => number;
}

/** Where the audit line's language comes from when the server's `language` setting is `auto`. */
export interface SettingsActionOptions {
	guildLocale?: string | null;
}

export interface SettingsSetOptions extends SettingsActionOptions {
	/**
	 * The input is a whole form (the dashboard's), every setting in it: only those whose value differs from the
	 * stored one are checked and changed, so the audit line names what changed, not every field; none differing is
	 * an answer (`changed` empty, nothing stored, no audit line), not a refusal.
	 */
	wholeForm?: boolean;
}

export interface SettingsChanged {
	after: ServerSettings;
	/** The settings changed, in the order `/settings show` lists them; empty when a whole form changed nothing. */
	changed: SettingName[];
}

/**
 * The server's settings, each role and channel Discord reports deleted unset first (and remembered as deleted, so
 * the answer can say so).
 */
export async function showSettings(
	ctx: Pick<SettingsActionContext, 'settings' | 'guildApi'>,
	actor: Actor,
	guildId: string,
): Promise<ServerSettings> {
	requireManageServer(actor, 'settings');
	return settingsWithDeletionsApplied(ctx, guildId, await ctx.settings.get(guildId));
}

/**
 * Whether this member may make this change, and the change it is: Manage Server first, then each value. The
 * action checks it again; a front end calls it first to answer a bad form before anything slow.
 */
export function checkSettingsChange(actor: Actor, guildId: string, input: SettingsInput): ParsedSettingsChange {
	requireManageServer(actor, 'settings');
	return parseSettingsInput(input, guildId);
}

/**
 * Applies a change (absent fields stay, empty ones go back to their default) and posts the audit line. A role must
 * be one of the server's that someone can hold: Discord is asked, as neither a form nor a crafted command can be
 * trusted to name one.
 */
export async function setSettings(
	ctx: SettingsActionContext,
	actor: Actor,
	guildId: string,
	input: SettingsInput,
	options: SettingsSetOptions = {},
): Promise<SettingsChanged> {
	requireManageServer(actor, 'settings');
	if (options.wholeForm) {
		const stored = await ctx.settings.get(guildId);
		input = differingSettings(input, stored);
		if (Object.keys(input).length === 0) return { after: stored, changed: [] };
	}
	const { change, changed } = checkSettingsChange(actor, guildId, input);
	await requireHoldableRoles(ctx, guildId, [change.serverStatsRoleId, change.shareRoleId]);
	const { after } = await ctx.settings.update(guildId, change);
	const guildLocale = options.guildLocale ?? null;
	// The line is for the whole server: in its language, which this very change may have set.
	const serverWords = translator(serverLanguage(after, guildLocale));
	await postAudit(
		ctx,
		guildId,
		{
			key: 'audit.settingsChanged',
			vars: {
				actor: auditActor(actor),
				when: auditTime(clockOf(ctx)()),
				changes: describeChanges(serverWords, after, changed, guildLocale).join(', '),
			},
		},
		{ guildLocale, settings: after },
	);
	return { after, changed };
}

/** Puts every setting back to its default; the audit line goes where the audit channel was before. */
export async function resetSettings(
	ctx: SettingsActionContext,
	actor: Actor,
	guildId: string,
	options: SettingsActionOptions = {},
): Promise<{ before: ServerSettings }> {
	requireManageServer(actor, 'settings');
	const before = await ctx.settings.reset(guildId);
	await postAudit(
		ctx,
		guildId,
		{ key: 'audit.settingsReset', vars: { actor: auditActor(actor), when: auditTime(clockOf(ctx)()) } },
		{ guildLocale: options.guildLocale ?? null, settings: before },
	);
	return { before };
}

/** The fields of a whole form whose value is not the stored one (an empty field against an unset setting is none). */
function differingSettings(form: SettingsInput, stored: ServerSettings): SettingsInput {
	const differing: SettingsInput = {};
	for (const name of SETTING_NAMES) {
		const option = SETTING_OPTIONS[name];
		const value = form[option];
		if (value === undefined) continue;
		const given = value === null ? '' : typeof value === 'object' ? value.id : String(value);
		if (given !== String(stored[name] ?? '')) Object.assign(differing, { [option]: value });
	}
	return differing;
}

/**
 * Each role a change sets must exist in the server and be one a member can be given: a bot's or an integration's
 * own role (managed) is held by that bot alone, so as a limit it would let nobody through. When Discord cannot be
 * asked the role is taken as chosen: `/settings show` unsets it once Discord reports it deleted.
 */
async function requireHoldableRoles(
	ctx: Pick<SettingsActionContext, 'guildApi'>,
	guildId: string,
	roleIds: readonly (string | null | undefined)[],
): Promise<void> {
	for (const roleId of roleIds) {
		if (!roleId) continue;
		const role = await ctx.guildApi.describeRole(guildId, roleId);
		if (role.state === 'deleted') throw new UserFacingError('settings.roleNotChoosable');
		if (role.managed) throw new UserFacingError('settings.roleManaged');
	}
}
