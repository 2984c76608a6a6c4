import type { Context } from 'hono';
import { isLocale, resolveLocale, translator, type Locale, type Translate } from '../i18n/index.js';
import type { WebSession } from './auth/sessions.js';

/** What the app's middleware puts on every request's context. */
export interface WebVariables {
	/** The logged-in member, or null. */
	session: WebSession | null;
	/** The session cookie's id when it opened a session (logout and login delete it). */
	sessionId: string | null;
	/** The language the answer is written in. */
	locale: Locale;
}

export type WebEnv = { Variables: WebVariables };
/** Behind `requireSession`: someone is logged in. */
export type MemberEnv = { Variables: WebVariables & { member: WebSession } };
export type WebContext = Context<WebEnv>;

/** A route group's context: what the app's middleware put on it is there whatever the group added. */
function web<E extends WebEnv>(c: Context<E>): Context<WebEnv> {
	return c as unknown as Context<WebEnv>;
}

/** The answer's language; en-US when a failure came before the middleware chose one. */
export function localeOf<E extends WebEnv>(c: Context<E>): Locale {
	return (web(c).get('locale') as Locale | undefined) ?? 'en-US';
}

export function translatorOf<E extends WebEnv>(c: Context<E>): Translate {
	return translator(localeOf(c));
}

/** `?lang=` first, then the member's Discord locale, then the browser's first language we have. */
export function pageLocale<E extends WebEnv>(c: Context<E>, session: WebSession | null): Locale {
	const asked = web(c).req.query('lang');
	if (isLocale(asked)) return asked;
	if (session?.locale) return resolveLocale(session.locale);
	const accepted = (c.req.header('accept-language') ?? '').split(',').map((part) => part.split(';')[0]?.trim());
	for (const tag of accepted) {
		if (isLocale(tag)) return tag;
		const language = tag?.split('-')[0];
		const match = ['de', 'fr', 'ru', 'tr', 'ja'].find((code) => code === language);
		if (match && isLocale(match)) return match;
	}
	return 'en-US';
}

/** The language the member chose in this request's `?lang=`, or null. */
export function askedLang<E extends WebEnv>(c: Context<E>): Locale | null {
	const asked = c.req.query('lang');
	return isLocale(asked) ? asked : null;
}

/** `?lang=xx` (or `&lang=xx`) when the member chose a language in this request, so links keep it. */
export function langQuery<E extends WebEnv>(c: Context<E>, joiner: '?' | '&'): string {
	const asked = askedLang(c);
	return asked ? `${joiner}lang=${asked}` : '';
}

/** The current path and query without `lang`, for the language links. */
export function herePath<E extends WebEnv>(c: Context<E>): string {
	const url = new URL(c.req.url);
	url.searchParams.delete('lang');
	return url.pathname + url.search;
}

export function isApiPath<E extends WebEnv>(c: Context<E>): boolean {
	return new URL(c.req.url).pathname.startsWith('/api/');
}
