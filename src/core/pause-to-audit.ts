import { resolveLocale, translator, type FacingMessage, type Translate } from '../i18n/index.js';
import { postAudit, type AuditDeps } from '../settings/audit.js';
import { serverLanguage } from '../settings/language.js';
import type { ServerSettings } from '../settings/settings-record.js';

/**
 * Tells the server's audit channel, in the server's language, that a record paused and why: `line` words it with
 * that language's translator. The caller calls it once, when the pause it stored is the one the store kept. Never
 * throws: the pause has happened, a failed post is logged.
 */
export async function auditPause(
	ctx: AuditDeps,
	record: { guildId: string; guildLocale: string | null },
	line: (t: Translate) => FacingMessage,
): Promise<void> {
	const { guildId, guildLocale } = record;
	// Read once for the language and the channel; when it cannot be, postAudit reads it again and logs the failure.
	const settings: ServerSettings | undefined = await ctx.settings.get(guildId).catch(() => undefined);
	const locale = settings ? serverLanguage(settings, guildLocale) : resolveLocale(guildLocale ?? 'en-US');
	await postAudit(ctx, guildId, line(translator(locale)), { guildLocale, settings });
}
