import type { Locale } from './locale.js';

export {
	CATALOGUE,
	commandLocalizations,
	referenceTranslator,
	translator,
	translatorLocale,
	type MessageKey,
	type Translate,
} from './catalogue.js';
export {
	FALLBACK_LOCALE,
	isLocale,
	LANGUAGE_NAMES,
	LOCALES,
	resolveLocale,
	TRANSLATED_LOCALES,
	type Locale,
	type TranslatedLocale,
} from './locale.js';

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A number for the reply's language, in standard (never compact) notation: 12345 → "12,345" / "12.345". */
export function formatNumber(locale: Locale, n: number): string {
	let format = numberFormats.get(locale);
	if (!format) {
		format = new Intl.NumberFormat(locale, { notation: 'standard' });
		numberFormats.set(locale, format);
	}
	return format.format(n);
}
export { memberTranslator, renderMessage, type FacingMessage, type MessageList } from './render-message.js';
