/** The product's languages, as Discord's locale codes; en-US is the fallback. */
export const LOCALES = ['en-US', 'de', 'fr', 'es-ES', 'pt-BR', 'ru', 'tr', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
export type TranslatedLocale = Exclude<Locale, 'en-US'>;

export const FALLBACK_LOCALE = 'en-US' satisfies Locale;

/** The locales Discord gets `*_localizations` for; en-US is the command's own name and description. */
export const TRANSLATED_LOCALES = LOCALES.filter((locale): locale is TranslatedLocale => locale !== FALLBACK_LOCALE);

/** Each language in its own words: the `/settings language` choices, which no member should have to translate. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
	'en-US': 'English (US)',
	de: 'Deutsch',
	fr: 'Français',
	'es-ES': 'Español (España)',
	'pt-BR': 'Português (Brasil)',
	ru: 'Русский',
	tr: 'Türkçe',
	ja: '日本語',
};

export function isLocale(value: unknown): value is Locale {
	return (LOCALES as readonly unknown[]).includes(value);
}

/**
 * The language of a reply for a Discord `locale` or `guild_locale`. Only the eight product locales
 * are kept; every other code, regional variants such as `en-GB` and `es-419` included, renders exactly
 * as en-US, so one member never sees a mix of two languages.
 */
export function resolveLocale(discordLocale: string | null | undefined): Locale {
	return isLocale(discordLocale) ? discordLocale : FALLBACK_LOCALE;
}
