import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HttpError, notFoundError } from './http-error.js';
import { readSession, sameOriginPosts, securityHeaders } from './middleware.js';
import { sendHttpError } from './respond.js';
import { accountRoutes } from './pages/account-routes.js';
import { apiRoutes } from './pages/api-routes.js';
import { authRoutes } from './auth/auth-routes.js';
import { manageRoutes } from './manage/manage-routes.js';
import { pageRoutes } from './pages/page-routes.js';
import { privacyRoutes } from './privacy/privacy-routes.js';
import { publicRoutes } from './public/public-routes.js';
import { siteRoutes } from './public/site-routes.js';
import { siteOf } from './site.js';
import { createFoldedHistoryCache } from './pages/stats-view.js';
import type { WebDeps } from './web-deps.js';
import { isApiPath, type WebEnv } from './web-env.js';

export type { WebDeps } from './web-deps.js';
export { safeNext } from './auth/auth-routes.js';

/** The forms' bodies are a few short fields; a server key is the longest of them. */
const MAX_BODY_BYTES = 4096;

/**
 * The dashboard (docs/web-dashboard.md), callable without a
 * socket through `app.request`: route groups on one app, the session put on the context by middleware, and
 * every failure turned into a page or JSON in `onError`.
 */
export function createWebApp(deps: WebDeps): Hono<WebEnv> {
	const site = siteOf(deps.config);
	const foldHistory = createFoldedHistoryCache();
	const app = new Hono<WebEnv>();

	app.use('*', securityHeaders);
	app.use('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.text('payload too large', 413) }));
	app.use('*', sameOriginPosts(site));
	app.use('*', readSession(site, deps.web));

	app.route('/', siteRoutes(deps));
	app.route('/', authRoutes(deps, site));
	app.route('/', pageRoutes(deps, site, foldHistory));
	app.route('/', apiRoutes(deps, foldHistory));
	app.route('/', manageRoutes(deps, site));
	app.route('/', accountRoutes(deps));
	app.route('/', privacyRoutes(deps, site));
	app.route('/', publicRoutes(deps, foldHistory));

	app.notFound((c) => sendHttpError(c, notFoundError({ json: isApiPath(c) })));

	app.onError((error, c) => {
		if (error instanceof HttpError) return sendHttpError(c, error);
		// The error's own text may name what failed inside (a URL, a token): it goes to the log, never the page.
		deps.log.error({ err: error, path: new URL(c.req.url).pathname }, 'dashboard request failed');
		return sendHttpError(c, new HttpError(500, { key: 'web.error' }, { json: isApiPath(c) }));
	});

	return app;
}
