import { CATALOGUE, LOCALES, type Locale } from '../../src/i18n/index.js';

export const PLURAL_KEY = /^(.+)_(zero|one|two|few|many|other)$/u;

/** Every leaf of a locale's JSON as `dotted.path → text`; a non-string leaf is reported as a failure. */
export function flatten(tree: object, prefix = ''): Map<string, string> {
	const leaves = new Map<string, string>();
	for (const [key, value] of Object.entries(tree)) {
		const path = `${prefix}${key}`;
		if (typeof value === 'string') leaves.set(path, value);
		else if (value !== null && typeof value === 'object') {
			for (const [child, text] of flatten(value as object, `${path}.`)) leaves.set(child, text);
		} else throw new Error(`${path} is neither text nor a group`);
	}
	return leaves;
}

export interface LocaleEntries {
	/** Keys without a plural suffix. */
	plain: Map<string, string>;
	/** Plural keys by base name, then by category. */
	plurals: Map<string, Map<string, string>>;
}

export function entriesOf(locale: Locale): LocaleEntries {
	const plain = new Map<string, string>();
	const plurals = new Map<string, Map<string, string>>();
	for (const [path, text] of flatten(CATALOGUE[locale])) {
		const match = PLURAL_KEY.exec(path);
		if (!match) {
			plain.set(path, text);
			continue;
		}
		const [, base = '', category = ''] = match;
		const forms = plurals.get(base) ?? new Map<string, string>();
		forms.set(category, text);
		plurals.set(base, forms);
	}
	return { plain, plurals };
}

export const ENTRIES = new Map(LOCALES.map((locale) => [locale, entriesOf(locale)]));

export function pluralCategories(locale: Locale): string[] {
	return [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories].sort();
}

/**
 * Whether the locale's `one` category means the number 1 alone (en, de, es, tr), so a `_one` text
 * may say "the day before" without the count; in fr and pt-BR it also covers 0 (and in ru 21, 31…).
 */
export function oneMeansExactlyOne(locale: Locale): boolean {
	const rules = new Intl.PluralRules(locale);
	for (const n of [0, 0.5, 1.5, 21, 31, 101, 1_000_001]) if (rules.select(n) === 'one') return false;
	return rules.select(1) === 'one';
}

const sorted = (items: Iterable<string>): string[] => [...items].sort();

/** The parts of a text that must survive translation unchanged, each as a sorted list. */
export function invariantParts(text: string): Record<string, string[] | number> {
	const withoutCode = text.replace(/`[^`]*`/gu, '');
	return {
		placeholders: sorted(text.match(/\{\{[^}]*\}\}/gu) ?? []),
		codeSpans: sorted(text.match(/`[^`]*`/gu) ?? []),
		backticks: (text.match(/`/gu) ?? []).length,
		mentions: sorted(text.match(/<(?:@&?|#|t:)[^>]*>/gu) ?? []),
		bold: (withoutCode.match(/\*\*/gu) ?? []).length,
		otherMarkdown: sorted(withoutCode.match(/__|~~|\|\||^>+ |^#+ |^- /gmu) ?? []),
		markers: sorted(text.match(/[▲▼■★⚠📊⏸]/gu) ?? []),
		// The dash of an unknown figure; ru also uses dashes in sentences, so only a final one counts.
		endsWithDash: text.endsWith('—') ? 1 : 0,
		lineBreaks: (text.match(/\n/gu) ?? []).length,
	};
}

/** `invariantParts` without the count placeholder, for comparing plural forms that may drop it. */
export function invariantPartsWithoutCount(text: string): Record<string, string[] | number> {
	return invariantParts(text.replace(/\{\{count(?:, *number)?\}\}/gu, ''));
}

export function codePoints(text: string): number {
	return [...text].length;
}

/** Fills every placeholder with `length` characters: the worst case a limit must survive. */
export function fillPlaceholders(text: string, length: number): string {
	return text.replace(/\{\{[^}]*\}\}/gu, 'W'.repeat(length));
}
