import { resolveLocale, type Locale } from '../i18n/index.js';

/**
 * The language of anything the whole channel reads (`share:true`, the Share button's copy): the server's,
 * never the member's. The one place that decides it, so a per-server language setting slots in here.
 */
export function publicLocale(interaction: { guildLocale: string | null }): Locale {
	return resolveLocale(interaction.guildLocale);
}

/** The language of a reply only the member sees. */
export function privateLocale(interaction: { locale: string }): Locale {
	return resolveLocale(interaction.locale);
}
