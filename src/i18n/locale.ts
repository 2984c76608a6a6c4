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
 * Discord locales outside the product that read the catalogue of the same language: Latin-American
 * Spanish gets the Spanish texts (Discord itself falls back the same way for command descriptions).
 */
export const LOCALE_FALLBACKS: ReadonlyMap<string, Locale> = new Map([['es-419', 'es-ES']]);

/**
 * The language of a reply for a Discord `locale` or `guild_locale`: a product locale as it is, a locale of
 * LOCALE_FALLBACKS as its language's catalogue, and every other code (`en-GB`, `ko`, …) exactly as en-US,
 * numbers included, so one member never sees a mix of two languages.
 */
export function resolveLocale(discordLocale: string | null | undefined): Locale {
	if (isLocale(discordLocale)) return discordLocale;
	return (discordLocale ? LOCALE_FALLBACKS.get(discordLocale) : undefined) ?? FALLBACK_LOCALE;
}
