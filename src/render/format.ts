/** Shown wherever a figure is absent, null or not a finite number. */
export const MISSING = '—';

const FALLBACK_LOCALE = 'en-US';

/**
 * Discord sends one of ~30 locales, and building Intl formatters is the slowest part of an embed
 * (tens of microseconds each, a dozen per reply), so resolved locales and formatters are kept.
 */
const resolvedLocales = new Map<string, string>();
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
const MAX_CACHED = 500;

/**
 * The tag Intl formats with: `locale` itself when Intl knows it, en-US otherwise (a malformed tag included).
 * Not a product language: which language a reader gets is i18n's resolveLocale; this only keeps a stray tag
 * from throwing in a formatter.
 */
function intlLocale(locale: string | null | undefined): string {
	if (!locale) return FALLBACK_LOCALE;
	let resolved = resolvedLocales.get(locale);
	if (resolved === undefined) {
		try {
			resolved = Intl.NumberFormat.supportedLocalesOf([locale])[0] ?? FALLBACK_LOCALE;
		} catch {
			// A malformed tag throws a RangeError; a member's client sent it, so it must not crash the reply.
			resolved = FALLBACK_LOCALE;
		}
		if (resolvedLocales.size < MAX_CACHED) resolvedLocales.set(locale, resolved);
	}
	return resolved;
}

/** A shared NumberFormat for a locale Intl knows (a product Locale) and options. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
	return cachedFormatter(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/** A shared DateTimeFormat for a locale Intl knows (a product Locale) and options. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
	return cachedFormatter(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** The few number formats the replies use, each found by a fixed name rather than its options written as JSON. */
const NUMBER_STYLES = {
	count: { maximumFractionDigits: 0 },
	percent: { style: 'percent', maximumFractionDigits: 1 },
	decimal: { maximumFractionDigits: 1 },
	oneDecimal: { minimumFractionDigits: 1, maximumFractionDigits: 1 },
} as const satisfies Record<string, Intl.NumberFormatOptions>;

type NumberStyle = keyof typeof NUMBER_STYLES;
/** Resolved locale → its formats by style: looked up without writing a key, several times per reply. */
const styledFormats = new Map<string, Partial<Record<NumberStyle, Intl.NumberFormat>>>();

function styledNumberFormat(locale: string, style: NumberStyle): Intl.NumberFormat {
	let byStyle = styledFormats.get(locale);
	if (!byStyle) {
		byStyle = {};
		if (styledFormats.size < MAX_CACHED) styledFormats.set(locale, byStyle);
	}
	return (byStyle[style] ??= new Intl.NumberFormat(locale, NUMBER_STYLES[style]));
}

function cachedFormatter<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, create: () => T): T {
	let formatter = formatters.get(key) as T | undefined;
	if (!formatter) {
		formatter = create();
		if (formatters.size < MAX_CACHED) formatters.set(key, formatter);
	}
	return formatter;
}

/** Formats a count for the locale (grouping, no decimals); null or non-finite reads as "—". */
export function formatCount(value: number | null, locale: string): string {
	if (value === null || !Number.isFinite(value)) return MISSING;
	return styledNumberFormat(intlLocale(locale), 'count').format(value);
}

/** Formats a ratio (0.125 → "12.5%") for the locale; null or non-finite reads as "—". */
export function formatPercent(ratio: number | null, locale: string): string {
	if (ratio === null || !Number.isFinite(ratio)) return MISSING;
	return styledNumberFormat(intlLocale(locale), 'percent').format(ratio);
}

/** Formats a decimal with at most one fraction digit for the locale; null or non-finite reads as "—". */
export function formatDecimal(value: number | null, locale: string): string {
	if (value === null || !Number.isFinite(value)) return MISSING;
	return styledNumberFormat(intlLocale(locale), 'decimal').format(value);
}

/** Exactly one fraction digit for the locale ("12.5", "12,5", "0.0"), for percentages of change. */
export function formatOneDecimal(value: number | null, locale: string): string {
	if (value === null || !Number.isFinite(value)) return MISSING;
	return styledNumberFormat(intlLocale(locale), 'oneDecimal').format(value);
}

/**
 * Dates as written, by day(s) and locale: ICU's formatRange costs tens of microseconds, and every reply of a
 * day writes the same few ranges. Emptied when full (a day's worth of ranges is a few hundred at most).
 */
const writtenDates = new Map<string, string>();

function rememberedDate(key: string, write: () => string): string {
	let text = writtenDates.get(key);
	if (text === undefined) {
		text = write();
		if (writtenDates.size >= MAX_CACHED) writtenDates.clear();
		writtenDates.set(key, text);
	}
	return text;
}

/** A UTC calendar day (`YYYY-MM-DD`) as the locale writes a date, with the year: "November 24, 2026". */
export function formatUtcDate(date: string, locale: string): string {
	return rememberedDate(`d|${date}|${locale}`, () => writeUtcDate(date, locale));
}

function writeUtcDate(date: string, locale: string): string {
	const ms = Date.parse(`${date}T00:00:00Z`);
	if (!Number.isFinite(ms)) return date;
	return dateTimeFormat(intlLocale(locale), {
		year: 'numeric',
		month: 'long',
		day: 'numeric',
		timeZone: 'UTC',
	}).format(ms);
}

/** The span of two UTC days, with the year, as the locale writes a range: "Nov 17 – 23, 2026". */
export function formatUtcDateRange(from: string, to: string, locale: string): string {
	return rememberedDate(`r|${from}|${to}|${locale}`, () => writeUtcDateRange(from, to, locale));
}

function writeUtcDateRange(from: string, to: string, locale: string): string {
	const start = Date.parse(`${from}T00:00:00Z`);
	const end = Date.parse(`${to}T00:00:00Z`);
	if (!Number.isFinite(start) || !Number.isFinite(end)) return `${from} – ${to}`;
	const format = dateTimeFormat(intlLocale(locale), {
		year: 'numeric',
		month: 'short',
		day: 'numeric',
		timeZone: 'UTC',
	});
	return start === end ? format.format(start) : format.formatRange(start, end);
}

/** Length in Unicode code points, the unit Discord's embed limits are safest read in. */
export function codePointLength(text: string): number {
	let length = 0;
	for (const _ of text) length++;
	return length;
}

/** Cuts text to at most `max` code points, ending with "…" when anything was cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
	if (max <= 0) return '';
	if (codePointLength(text) <= max) return text;
	return Array.from(text)
		.slice(0, max - 1)
		.join('')
		.concat('…');
}
