import { Hono } from 'hono';
import { describeExpectedError } from '../../error-messages.js';
import { isLocale } from '../../i18n/index.js';
import { serverLanguage } from '../../settings/language.js';
import { guildOfPublicToken } from '../../settings/public-page.js';
import { embedSnippets } from './embed-snippets.js';
import { html } from '../html.js';
import { notFoundError } from '../http-error.js';
import { renderPage } from '../layout.js';
import { statsBody } from '../pages/stats-page.js';
import { siteOf } from '../site.js';
import { readStatsRequest } from '../pages/stats-request.js';
import { loadDashboardStats, type FoldHistory } from '../pages/stats-view.js';
import type { WebDeps } from '../web-deps.js';
import { herePath, localeOf, translatorOf, type WebEnv } from '../web-env.js';
import { embedRoutes } from './embed-routes.js';
import { statsPageOptions } from '../pages/page-routes.js';

/** A server's read-only page an admin published: no login, no export, no member data, kept out of search. */
export function publicRoutes(deps: WebDeps, foldHistory: FoldHistory): Hono<WebEnv> {
	const pub = new Hono<WebEnv>();
	const now = deps.now ?? Date.now;

	pub.get('/p/:token', async (c) => {
		const guildId = await guildOfPublicToken(deps, c.req.param('token'));
		if (guildId === null) throw notFoundError();
		const guild = await deps.botGuilds.guild(guildId);
		if (guild === null || (await deps.links.getServerLink(guildId)) === null) throw notFoundError();
		const settings = await deps.settings.get(guildId);
		const langParam = c.req.query('lang');
		c.set('locale', isLocale(langParam) ? langParam : serverLanguage(settings, guild.preferredLocale));
		const request = readStatsRequest(c, settings);
		const t = translatorOf(c);
		const view = {
			days: request.days,
			metric: request.metric,
			locale: localeOf(c),
			serverName: guild.name,
			now: now(),
		};
		// Whatever keeps the figures from a visitor (a refused key, the service down) reads as no page at all.
		const stats = await loadDashboardStats(deps, { scope: 'server', userId: '', guildId }, view, foldHistory).catch(
			(error: unknown) => {
				throw describeExpectedError(error) === null ? error : notFoundError();
			},
		);
		const heading = t('web.publicHeading', { server: guild.name });
		c.header('X-Robots-Tag', 'noindex, nofollow');
		const path = new URL(c.req.url).pathname;
		const body = html`${statsBody(stats, { ...statsPageOptions(c, path), heading, exportPath: null })}
			<p class="note">${t('web.publicPageNote')}</p>
			${embedSnippets(t, `${siteOf(deps.config).origin}/p/${c.req.param('token')}`)}`;
		return c.html(
			renderPage({ locale: localeOf(c), title: heading, user: null, noindex: true, here: herePath(c) }, body),
		);
	});

	pub.route('/', embedRoutes(deps, foldHistory));
	return pub;
}
