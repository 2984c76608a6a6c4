import { Hono, type Context } from 'hono';
import { describeExpectedError } from '../../error-messages.js';
import { formatNumber, isLocale, translator } from '../../i18n/index.js';
import { ObjectViewMemo } from '../../object-view-memo.js';
import { buildChartConfig, type BuiltChart, type ChartInput, type ChartTheme } from '../../render/chart.js';
import { CHART_SIZE } from '../../render/draw-chart.js';
import { serverLanguage } from '../../settings/language.js';
import { guildOfPublicToken } from '../../settings/public-page.js';
import type { ServerSettings } from '../../settings/settings-record.js';
import { fetchStatsFor } from '../../stats/resolve-key.js';
import { figureValue } from '../../watch/stat-name.js';
import { createEmbedCache } from './embed-cache.js';
import { badgeSvg, embedAnswer, matchesIfNoneMatch, notModified, readFigure, readTheme, strongEtag } from './embeds.js';
import { notFoundError } from '../http-error.js';
import { readStatsRequest } from '../pages/stats-request.js';
import { loadDashboardStats, type FoldHistory } from '../pages/stats-view.js';
import type { WebDeps } from '../web-deps.js';
import { localeOf, type WebEnv } from '../web-env.js';

/** PNGs kept by ETag: a few servers' charts in both themes and the usual ranges, about 3 MB at most. */
const CHART_CACHE_ENTRIES = 64;
/** Bumped when the drawing changes for the same config, so a browser's old ETag does not get a 304. */
const CHART_DRAWING_VERSION = '1';

/**
 * `/p/{token}/chart.png` and `/p/{token}/badge.svg`: a public page's chart and one figure, for other sites. The
 * token is looked up on every request, before any cache, so turning the page off ends both at once.
 */
export function embedRoutes(deps: WebDeps, foldHistory: FoldHistory): Hono<WebEnv> {
	const embeds = new Hono<WebEnv>();
	const now = deps.now ?? Date.now;
	const pngs = createEmbedCache(CHART_CACHE_ENTRIES);
	const builtCharts = new ObjectViewMemo<ChartInput, BuiltChart>(2);
	const chartEtags = new WeakMap<object, string>();

	/** The chart's ETag names what it is drawn from (config, size, background, renderer), so no draw is needed. */
	const chartEtag = (built: BuiltChart): string => {
		let etag = chartEtags.get(built);
		if (etag === undefined) {
			const drawn = JSON.stringify([built.config, CHART_SIZE, built.background]);
			etag = strongEtag('png', CHART_DRAWING_VERSION, deps.renderer.name, drawn);
			chartEtags.set(built, etag);
		}
		return etag;
	};

	embeds.get('/p/:token/chart.png', async (c) => {
		const server = await publicServer(c, deps);
		const request = readStatsRequest(c, server.settings);
		const theme: ChartTheme = readTheme(c);
		if (deps.renderer.name === 'none') throw notFoundError();
		const view = {
			days: request.days,
			metric: request.metric,
			locale: localeOf(c),
			serverName: server.name,
			now: now(),
		};
		const stats = await loadDashboardStats(deps, serverTarget(server.guildId), view, foldHistory).catch(hidden);
		const input = stats.chartInput;
		// No days to draw yet (or joins before their second day): as the bot, no chart.
		if (input === null) throw notFoundError();
		const built = builtCharts.get(input, theme, () => buildChartConfig(input, { theme }));
		const etag = chartEtag(built);
		if (matchesIfNoneMatch(c.req.header('if-none-match'), etag)) return notModified(c, etag);
		const png = await pngs.get(etag, async () => {
			const drawn = await deps.renderer.render(built.config, CHART_SIZE, { background: built.background });
			if (drawn === null) throw new Error('the renderer drew nothing');
			return drawn;
		});
		return embedAnswer(c, png, 'image/png', etag);
	});

	embeds.get('/p/:token/badge.svg', async (c) => {
		const server = await publicServer(c, deps);
		const figure = readFigure(c);
		const result = await fetchStatsFor(deps, serverTarget(server.guildId)).catch(hidden);
		const locale = localeOf(c);
		const value = figureValue(result.snapshot, figure);
		const svg = badgeSvg(
			translator(locale)(`watch.figures.${figure}`),
			value === null ? '—' : formatNumber(locale, value),
		);
		const etag = strongEtag('svg', svg);
		if (matchesIfNoneMatch(c.req.header('if-none-match'), etag)) return notModified(c, etag);
		return embedAnswer(c, svg, 'image/svg+xml; charset=utf-8', etag);
	});

	return embeds;
}

interface PublicServer {
	guildId: string;
	name: string;
	settings: ServerSettings;
}

/**
 * The server a public token opens, with the answer's language (the server's, `?lang=` overriding as on the page);
 * 404 for a token that is unknown or turned off, or a server the bot left or that has no key.
 */
async function publicServer(c: Context<WebEnv>, deps: WebDeps): Promise<PublicServer> {
	const guildId = await guildOfPublicToken(deps, c.req.param('token') ?? '');
	if (guildId === null) throw notFoundError();
	const guild = await deps.botGuilds.guild(guildId);
	if (guild === null || (await deps.links.getServerLink(guildId)) === null) throw notFoundError();
	const settings = await deps.settings.get(guildId);
	const lang = c.req.query('lang');
	c.set('locale', isLocale(lang) ? lang : serverLanguage(settings, guild.preferredLocale));
	return { guildId, name: guild.name, settings };
}

function serverTarget(guildId: string) {
	return { scope: 'server' as const, userId: '', guildId };
}

/** As on the public page: whatever keeps the figures from a visitor (a refused key, the service down) is a 404. */
function hidden(error: unknown): never {
	if (describeExpectedError(error) === null) throw error;
	throw notFoundError();
}
