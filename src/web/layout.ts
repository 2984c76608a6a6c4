import { LANGUAGE_NAMES, LOCALES, translator, type Locale } from '../i18n/index.js';
import { html, SafeHtml } from './html.js';
import { staticUrl } from './static-files.js';

/** What the page header shows of the member; null when logged out (or on a public page). */
export interface PageUser {
	name: string;
}

export interface PageFrame {
	locale: Locale;
	title: string;
	user: PageUser | null;
	/** Public pages ask search engines to stay away. */
	noindex?: boolean;
	/** The page's path and query without `lang`, for the language links. */
	here?: string;
}

/** The frame every page shares: language, header with login state, one stylesheet. */
export function renderPage(frame: PageFrame, body: SafeHtml): string {
	const t = translator(frame.locale);
	const account = frame.user
		? html`<span class="who">${t('web.loggedInAs', { name: frame.user.name })}</span>
				<form method="post" action="/logout" class="inline"><button type="submit">${t('web.logout')}</button></form>`
		: html`<a class="button" href="/login">${t('web.login')}</a>`;
	return html`<!doctype html>
		<html lang="${frame.locale}">
			<head>
				<meta charset="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				${frame.noindex ? html`<meta name="robots" content="noindex, nofollow" />` : ''}
				<title>${frame.title} · ${t('web.siteName')}</title>
				<link rel="stylesheet" href="${staticUrl('dashboard.css')}" />
			</head>
			<body>
				<header>
					<a class="home" href="/">${t('web.siteName')}</a>
					<nav>${frame.noindex ? '' : account}</nav>
				</header>
				<main>${body}</main>
				<footer>${languageLinks(frame)}</footer>
			</body>
		</html> `.text;
}

function languageLinks(frame: PageFrame): SafeHtml {
	const here = frame.here ?? '/';
	const joiner = here.includes('?') ? '&' : '?';
	return html`<nav class="languages" aria-label="${translator(frame.locale)('web.language')}">
		${LOCALES.map(
			(locale) =>
				html`<a
					href="${here}${joiner}lang=${locale}"
					lang="${locale}"
					${locale === frame.locale ? html` aria-current="true"` : ''}
					>${LANGUAGE_NAMES[locale]}</a
				> `,
		)}
	</nav>`;
}

/** A short page: a heading, one paragraph (already HTML) and optional links. */
export function messageBody(title: string, text: SafeHtml | string, links: { href: string; label: string }[] = []) {
	return html`<h1>${title}</h1>
		<p class="message">${text}</p>
		${links.map((link) => html`<p><a class="button" href="${link.href}">${link.label}</a></p>`)}`;
}
