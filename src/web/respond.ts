import type { Context } from 'hono';
import { renderMessage, type FacingMessage } from '../i18n/index.js';
import { discordTextToHtml, type SafeHtml } from './html.js';
import { HttpError, jsonCodeOf, type ErrorStatus } from './http-error.js';
import { messageBody, renderPage, type PageFrame } from './layout.js';
import { herePath, localeOf, translatorOf, type WebEnv } from './web-env.js';

const DEFAULT_TITLES = {
	400: 'web.badRequestTitle',
	401: 'web.loginRequired',
	403: 'web.refusedTitle',
	404: 'web.notFoundTitle',
	500: 'web.errorTitle',
	503: 'web.errorTitle',
} as const satisfies Record<ErrorStatus, string>;

/** The frame of a page for this request: its language, the member in the header, the language links. */
export function frameOf<E extends WebEnv>(c: Context<E>, title: string): PageFrame {
	const session = (c as unknown as Context<WebEnv>).get('session') ?? null;
	return {
		locale: localeOf(c),
		title,
		user: session ? { name: session.globalName ?? session.username } : null,
		here: herePath(c),
	};
}

/** A whole page, 200 unless told. */
export function sendPage<E extends WebEnv>(
	c: Context<E>,
	title: string,
	body: SafeHtml,
	status: 200 | ErrorStatus = 200,
) {
	return c.html(renderPage(frameOf(c, title), body), status);
}

/** A short page: a heading, one paragraph and links. */
export function sendMessagePage<E extends WebEnv>(
	c: Context<E>,
	status: 200 | ErrorStatus,
	title: string,
	text: SafeHtml | string,
	links: { href: string; label: string }[] = [],
) {
	return sendPage(c, title, messageBody(title, text, links), status);
}

/** An HttpError as the member reads it: a page in their language, or the JSON error shape. */
export function sendHttpError<E extends WebEnv>(c: Context<E>, error: HttpError) {
	const t = translatorOf(c);
	const text = renderMessage(t, error.text);
	if (error.options.json) return c.json({ error: { code: jsonCodeOf(error), message: text } }, error.status);
	const title = titleOf(error.options.title, error.status, (message) => renderMessage(t, message));
	const links = (error.options.links ?? []).map((link) => ({ href: link.href, label: renderMessage(t, link.label) }));
	return sendMessagePage(
		c,
		error.status,
		title,
		discordTextToHtml(text, { names: error.options.names, locale: localeOf(c) }),
		links,
	);
}

function titleOf(
	title: FacingMessage | string | undefined,
	status: ErrorStatus,
	render: (message: FacingMessage) => string,
): string {
	if (typeof title === 'string') return title;
	return render(title ?? { key: DEFAULT_TITLES[status] });
}
