import i18next, { type i18n, type TOptions } from 'i18next';
import de from './locales/de.json' with { type: 'json' };
import enUS from './locales/en-US.json' with { type: 'json' };
import esES from './locales/es-ES.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };
import tr from './locales/tr.json' with { type: 'json' };
import { FALLBACK_LOCALE, LOCALES, TRANSLATED_LOCALES, type Locale, type TranslatedLocale } from './locale.js';
import type { MessageKey } from './message-key.js';

export type { MessageKey } from './message-key.js';

/** The bundled catalogue, one JSON object per locale, as written in `src/i18n/locales/`. */
export const CATALOGUE: Readonly<Record<Locale, object>> = {
	'en-US': enUS,
	de,
	fr,
	'es-ES': esES,
	'pt-BR': ptBR,
	ru,
	tr,
	ja,
};

export type Translate = (key: MessageKey, vars?: Record<string, unknown>) => string;

/**
 * One instance, initialised synchronously from the bundled resources when this module loads: `t()`
 * before `init()` has finished returns '' in i18next 26, so nothing may be loaded lazily.
 */
const instance: i18n = i18next.createInstance();
void instance.init({
	resources: Object.fromEntries(LOCALES.map((locale) => [locale, { translation: CATALOGUE[locale] }])),
	lng: FALLBACK_LOCALE,
	// A code outside supportedLngs drops straight to the fallback. resolveLocale turns es-419 into es-ES
	// before it reaches here; the entry keeps a direct caller from getting a language mix (a per-language
	// entry does not inherit `default`, hence en-US repeated).
	fallbackLng: { 'es-419': ['es-ES', FALLBACK_LOCALE], default: [FALLBACK_LOCALE] },
	supportedLngs: [...LOCALES],
	load: 'currentOnly',
	initAsync: false,
	// Discord is not HTML: escaping would turn an account name's `&` into `&amp;`.
	interpolation: { escapeValue: false },
	// Keys are dotted paths; a `:` in a key must not be read as a namespace.
	nsSeparator: false,
	returnEmptyString: false,
});

const translators = new Map<Locale, Translate>();

/**
 * Texts in one language, fixed per call site: never `changeLanguage`, whose language is shared by
 * every interaction in flight.
 */
export function translator(locale: Locale): Translate {
	let translate = translators.get(locale);
	if (!translate) {
		const t = instance.getFixedT(locale);
		translate = (key, vars) => t(key, vars as TOptions) as string;
		translators.set(locale, translate);
	}
	return translate;
}

/** The seven non-English texts of a key, for Discord's `name_localizations` / `description_localizations`. */
export function commandLocalizations(key: MessageKey): Partial<Record<TranslatedLocale, string>> {
	const localizations: Partial<Record<TranslatedLocale, string>> = {};
	for (const locale of TRANSLATED_LOCALES) localizations[locale] = translator(locale)(key);
	return localizations;
}
