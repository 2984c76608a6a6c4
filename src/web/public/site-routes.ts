import { Hono } from 'hono';
import { notFoundError } from '../http-error.js';
import { serveStatic } from '../static-files.js';
import type { WebDeps } from '../web-deps.js';
import type { WebEnv } from '../web-env.js';

/** What any visitor may fetch: the static files, the icon browsers ask for, the health probe. */
export function siteRoutes(deps: Pick<WebDeps, 'storeAnswers'>): Hono<WebEnv> {
	const site = new Hono<WebEnv>();

	site.get('/static/:file', async (c) => {
		const answer = await serveStatic(c.req.param('file'), c.req.header('accept-encoding'));
		if (!answer) throw notFoundError();
		return c.body(answer.body, 200, answer.headers);
	});

	// Browsers ask for it on every first visit; no icon is better than a 404 in every log and console.
	site.get('/favicon.ico', (c) => c.body(null, 204, { 'Cache-Control': 'public, max-age=86400' }));

	site.get('/healthz', async (c) => {
		const answers = await deps.storeAnswers().catch(() => false);
		return c.text(answers ? 'ok' : 'store unavailable', answers ? 200 : 503);
	});

	return site;
}
