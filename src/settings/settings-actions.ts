import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import type { GuildApi } from '../guild-api.js';
import { translator } from '../i18n/index.js';
import { auditTime, postAudit, type AuditDeps } from './audit.js';
import { settingsWithDeletionsApplied } from './check-resources.js';
import { describeChanges, type SettingName } from './describe-settings.js';
import { serverLanguage } from './language.js';
import { parseSettingsInput, type ParsedSettingsChange, type SettingsInput } from './read-options.js';
import type { ServerSettings } from './settings-record.js';
import type { SettingsStore } from './settings-store.js';

// A server's `/settings`, from the slash command or the dashboard's manage page: the same checks, store writes and
// audit lines for both.

/** What the settings actions use; a CoreContext has all of it. */
export interface SettingsActionContext extends AuditDeps {
	settings: SettingsStore;
	guildApi: Pick<GuildApi, 'postMessage' | 'roleState' | 'channelState'>;
	now?: () => number;
}

/** Where the audit line's language comes from when the server's `language` setting is `auto`. */
export interface SettingsActionOptions {
	guildLocale?: string | null;
}

export interface SettingsChanged {
	after: ServerSettings;
	/** The settings the input named, in the order `/settings show` lists them. */
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

/** Applies a change (absent fields stay, empty ones go back to their default) and posts the audit line. */
export async function setSettings(
	ctx: SettingsActionContext,
	actor: Actor,
	guildId: string,
	input: SettingsInput,
	options: SettingsActionOptions = {},
): Promise<SettingsChanged> {
	const { change, changed } = checkSettingsChange(actor, guildId, input);
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
