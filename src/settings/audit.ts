import { time, TimestampStyles } from 'discord.js';
import { translator } from '../i18n/index.js';
import type { GuildApi } from '../guild-api.js';
import type { Logger } from '../logger.js';
import { renderMessage } from '../i18n/index.js';
import type { FacingMessage } from '../i18n/index.js';
import { ChannelRefusedError } from '../errors.js';
import { serverLanguage } from './language.js';
import type { ServerSettings } from './settings-record.js';
import type { SettingsStore } from './settings-store.js';

export interface AuditDeps {
	settings: Pick<SettingsStore, 'get' | 'forgetDeleted'>;
	guildApi: Pick<GuildApi, 'postMessage'>;
	log: Pick<Logger, 'info' | 'warn'>;
}

/** How long a key hint may be: an audit line never shows more of a key. */
const KEY_HINT_LENGTH = 4;

/** `{{when}}` of an audit line: a Discord timestamp, shown in each reader's own language and time zone. */
export function auditTime(at: number = Date.now()): string {
	return time(Math.floor(at / 1000), TimestampStyles.LongDateTime);
}

/**
 * Posts one line (`audit.*` key and its values) to the server's audit channel, in the server's
 * language; does nothing when none is set. Never throws: the change it records has already happened,
 * so a failed post is logged, and a channel Discord reports gone is unset like any deleted channel.
 */
export async function postAudit(
	ctx: AuditDeps,
	guildId: string,
	line: FacingMessage,
	options: {
		guildLocale?: string | null;
		/** The settings to read the channel and language from (a reset's, from before it); default: the stored ones. */
		settings?: ServerSettings;
	} = {},
): Promise<void> {
	try {
		const settings = options.settings ?? (await ctx.settings.get(guildId));
		const channelId = settings.auditChannelId;
		if (channelId === null) return;
		const t = translator(serverLanguage(settings, options.guildLocale ?? null));
		try {
			await ctx.guildApi.postMessage(channelId, { content: renderMessage(t, withShortKeyHint(line)) });
		} catch (error) {
			if (!(error instanceof ChannelRefusedError && error.reason === 'channelGone')) throw error;
			await ctx.settings.forgetDeleted({ guildId, channelId });
			ctx.log.info({ guildId, channelId }, 'audit channel deleted; unset');
		}
	} catch (error) {
		ctx.log.warn({ err: error, guildId, audit: line.key }, 'audit line not posted');
	}
}

/** Callers pass a hint already; cutting it here keeps any slip from putting more of a key in a channel. */
function withShortKeyHint(line: FacingMessage): FacingMessage {
	if (line.vars?.keyHint === undefined) return line;
	return { ...line, vars: { ...line.vars, keyHint: String(line.vars.keyHint).slice(-KEY_HINT_LENGTH) } };
}
