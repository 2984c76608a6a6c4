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
 * i18next, the reference for every text: initialised synchronously from the bundled resources (`t()` before
 * `init()` has finished returns '' in i18next 26, so nothing may be loaded lazily). Built on first use: the
 * compiled translator below answers nearly every call without it.
 */
let reference: i18n | undefined;
function referenceInstance(): i18n {
	if (reference) return reference;
	reference = i18next.createInstance();
	void reference.init({
		resources: Object.fromEntries(LOCALES.map((locale) => [locale, { translation: CATALOGUE[locale] }])),
		lng: FALLBACK_LOCALE,
		// A code outside supportedLngs drops straight to the fallback. es-419 never reaches here through
		// resolveLocale; the entry keeps a direct caller from getting a language mix (a per-language entry does
		// not inherit `default`, hence en-US repeated).
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
	return reference;
}

/** i18next's own `t` for a language: what the compiled translator must match, text for text. */
export function referenceTranslator(locale: Locale): Translate {
	const t = referenceInstance().getFixedT(locale);
	return (key, vars) => t(key, vars as TOptions) as string;
}

const translators = new Map<Locale, Translate>();
const translatorLocales = new WeakMap<Translate, Locale>();

/** The language a translator writes (en-US for one not made by `translator`): lists and numbers follow it. */
export function translatorLocale(t: Translate): Locale {
	return translatorLocales.get(t) ?? FALLBACK_LOCALE;
}

/**
 * Texts in one language, fixed per call site: never `changeLanguage`, whose language is shared by
 * every interaction in flight. Each key is looked up and its template parsed once per language (an
 * i18next call costs tens of microseconds, and a /stats reply makes dozens); only what the compiled
 * form does not cover (a missing key, a non-number count, an unknown format) goes to i18next.
 */
export function translator(locale: Locale): Translate {
	let translate = translators.get(locale);
	if (!translate) {
		translate = compiledTranslator(locale);
		translators.set(locale, translate);
		translatorLocales.set(translate, locale);
	}
	return translate;
}

/** A placeholder: `{{name}}`, or `{{name, number}}` formatted for the language. */
type Part = string | { name: string; match: string; number: boolean };
/** A key's parsed template(s); null where i18next must answer. */
type Compiled = { plural: false; parts: Part[] | null } | { plural: true; forms: Map<string, Part[] | null> };

function compiledTranslator(locale: Locale): Translate {
	const compiled = new Map<string, Compiled>();
	const plurals = new Intl.PluralRules(locale);
	const numbers = new Intl.NumberFormat(locale);
	let fallback: Translate | undefined;
	const slow: Translate = (key, vars) => (fallback ??= referenceTranslator(locale))(key, vars);

	const compile = (key: string): Compiled => {
		const plain = templateOf(locale, key);
		if (plain !== null) return { plural: false, parts: parseTemplate(plain) };
		const forms = new Map<string, Part[] | null>();
		for (const category of plurals.resolvedOptions().pluralCategories) {
			const text = templateOf(locale, `${key}_${category}`);
			forms.set(category, text === null ? null : parseTemplate(text));
		}
		// A key with no form in this language at all is not a plural here: i18next falls back (or says the key).
		return [...forms.values()].some((form) => form !== null) ? { plural: true, forms } : { plural: false, parts: null };
	};

	return (key, vars) => {
		let entry = compiled.get(key);
		if (!entry) {
			entry = compile(key);
			compiled.set(key, entry);
		}
		let parts: Part[] | null;
		if (entry.plural) {
			const count = vars?.count;
			// i18next picks `_zero` for 0 when such a key exists; the catalogue has none, so i18next decides then.
			if (typeof count !== 'number' || count === 0) return slow(key, vars);
			parts = entry.forms.get(plurals.select(count)) ?? null;
		} else {
			// A plain key asked with a count may have plural forms in en-US only: i18next knows that path.
			parts = vars !== undefined && 'count' in vars ? null : entry.parts;
		}
		return parts === null ? slow(key, vars) : (interpolate(parts, vars, numbers) ?? slow(key, vars));
	};
}

/** The text of a dotted key in the language, else in en-US (as i18next falls back); null when neither has one. */
function templateOf(locale: Locale, key: string): string | null {
	const languages: Locale[] = locale === FALLBACK_LOCALE ? [locale] : [locale, FALLBACK_LOCALE];
	for (const language of languages) {
		let node: unknown = CATALOGUE[language];
		for (const segment of key.split('.')) {
			node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
		}
		// returnEmptyString: false makes an empty text count as missing.
		if (typeof node === 'string' && node !== '') return node;
		if (node !== undefined) return null;
	}
	return null;
}

/** Splits a template at its placeholders; null for any placeholder i18next would treat specially. */
function parseTemplate(text: string): Part[] | null {
	if (text.includes('$t(')) return null;
	const parts: Part[] = [];
	let last = 0;
	for (const match of text.matchAll(/\{\{(.+?)\}\}/gu)) {
		const [whole, inner = ''] = match;
		const [name = '', format, ...rest] = inner.split(',').map((piece) => piece.trim());
		if (rest.length > 0 || (format !== undefined && format !== 'number') || !/^[A-Za-z][\w]*$/u.test(name)) return null;
		parts.push(text.slice(last, match.index), { name, match: whole, number: format === 'number' });
		last = match.index + whole.length;
	}
	parts.push(text.slice(last));
	return parts.filter((part) => part !== '');
}

/** The text with its values in; null when a value is of a kind only i18next should render. */
function interpolate(parts: Part[], vars: Record<string, unknown> | undefined, numbers: Intl.NumberFormat) {
	let text = '';
	for (const part of parts) {
		if (typeof part === 'string') {
			text += part;
			continue;
		}
		const value = vars?.[part.name];
		// i18next leaves a placeholder without a value as it is, and writes null as nothing.
		if (value === undefined) text += part.match;
		else if (part.number) {
			if (typeof value !== 'number') return null;
			text += numbers.format(value);
		} else if (value === null) text += '';
		else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
			text += String(value);
		else return null;
	}
	return text;
}

/** The seven non-English texts of a key, for Discord's `name_localizations` / `description_localizations`. */
export function commandLocalizations(key: MessageKey): Partial<Record<TranslatedLocale, string>> {
	const localizations: Partial<Record<TranslatedLocale, string>> = {};
	for (const locale of TRANSLATED_LOCALES) localizations[locale] = translator(locale)(key);
	return localizations;
}
