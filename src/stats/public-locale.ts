import { resolveLocale, type Locale } from '../i18n/index.js';
import { serverLanguage } from '../settings/language.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../settings/settings-record.js';

/**
 * The language of anything the whole channel reads (`share:true`, the Share button's copy): the server's
 * `language` setting, else the server's own locale; never the member's.
 */
export function publicLocale(
	interaction: { guildLocale: string | null },
	settings: Pick<ServerSettings, 'language'> = DEFAULT_SETTINGS,
): Locale {
	return serverLanguage(settings, interaction.guildLocale);
}

/** The language of a reply only the member sees. */
export function privateLocale(interaction: { locale: string }): Locale {
	return resolveLocale(interaction.locale);
}
