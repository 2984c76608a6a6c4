import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { HttpError } from './http-error.js';
import type { WebStore } from './auth/sessions.js';
import type { Site } from './site.js';
import { pageLocale, type MemberEnv, type WebEnv } from './web-env.js';

const CSP = [
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data:",
	"object-src 'none'",
	"base-uri 'none'",
	"form-action 'self'",
	"frame-ancestors 'none'",
].join('; ');

/** On every answer, errors and static files included. */
export const securityHeaders = createMiddleware<WebEnv>(async (c, next) => {
	await next();
	const headers = c.res.headers;
	headers.set('Content-Security-Policy', CSP);
	headers.set('X-Content-Type-Options', 'nosniff');
	headers.set('Referrer-Policy', 'same-origin');
	headers.set('X-Frame-Options', 'DENY');
	if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
});

/** Every POST comes from a form of ours: anything else is a cross-site request and changes nothing. */
export function sameOriginPosts(site: Site) {
	return createMiddleware<WebEnv>(async (c, next) => {
		if (c.req.method === 'POST' && c.req.header('origin') !== site.origin) {
			c.set('locale', pageLocale(c, null));
			throw new HttpError(403, { key: 'web.forbiddenOrigin' });
		}
		await next();
	});
}

/** Puts the session (or null) and the answer's language on the context. */
export function readSession(site: Site, web: Pick<WebStore, 'readSession'>) {
	return createMiddleware<WebEnv>(async (c, next) => {
		const id = getCookie(c, site.sessionCookie) ?? null;
		const session = id ? await web.readSession(id) : null;
		c.set('sessionId', session ? id : null);
		c.set('session', session);
		c.set('locale', pageLocale(c, session));
		await next();
	});
}

/** A page that needs a session sends a visitor without one to the login, back here afterwards. */
export const pageSession = createMiddleware<MemberEnv>(async (c, next) => {
	const session = c.get('session');
	if (!session) {
		const url = new URL(c.req.url);
		return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
	}
	c.set('member', session);
	await next();
});

/** The JSON and CSV routes answer 401 JSON: a program cannot follow a login. */
export const apiSession = createMiddleware<MemberEnv>(async (c, next) => {
	const session = c.get('session');
	if (!session) throw new HttpError(401, { key: 'web.loginRequired' }, { json: true });
	c.set('member', session);
	await next();
});

/** A form sent without a session (it expired meanwhile) changes nothing: a 401 page with a way to log in. */
export const formSession = createMiddleware<MemberEnv>(async (c, next) => {
	const session = c.get('session');
	if (!session) {
		throw new HttpError(
			401,
			{ key: 'web.loginRequired' },
			{ links: [{ href: '/login', label: { key: 'web.login' } }] },
		);
	}
	c.set('member', session);
	await next();
});
