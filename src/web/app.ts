import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { auditActor } from '../actor.js';
import type { Config } from '../config.js';
import { describeExpectedError } from '../error-messages.js';
import { UserFacingError } from '../errors.js';
import type { GuildApi } from '../guild-api.js';
import { isLocale, renderMessage, resolveLocale, translator, type Locale, type Translate } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import { auditTime, postAudit } from '../settings/audit.js';
import { serverLanguage } from '../settings/language.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { exportStats } from '../stats/export-stats.js';
import { completeStatsRequest, parseStatsOptions, type StatsRequest, type StatsTarget } from '../stats/request.js';
import { OAuthExchangeError, type OAuthClient } from './discord-oauth.js';
import { discordTextToHtml, html, type SafeHtml } from './html.js';
import {
	loggedInHome,
	loggedOutHome,
	messageBody,
	publicLinkForm,
	renderPage,
	statsBody,
	type PageUser,
} from './pages.js';
import { checkServerAccess, visibleServers, type AccessDeps } from './server-access.js';
import { LOGIN_STATE_TTL_MS, SESSION_TTL_MS, sameSecret, type WebSession, type WebStore } from './sessions.js';
import { loadStaticFiles, type StaticFile } from './static-files.js';
import {
	createFoldedHistoryCache,
	loadDashboardStats,
	statsJson,
	type DashboardStats,
	type StatsViewDeps,
} from './stats-view.js';

/** What the dashboard reads and does; built once at start-up, once per test. */
export interface WebDeps extends StatsViewDeps, Omit<AccessDeps, 'links'> {
	links: StatsViewDeps['links'] & AccessDeps['links'];
	config: Pick<
		Config,
		'webPublicUrl' | 'discordOauthUrl' | 'applicationId' | 'historyDays' | 'discordApiUrl' | 'discordClientSecret'
	>;
	settings: Pick<SettingsStore, 'get' | 'forgetDeleted'>;
	guildApi: Pick<GuildApi, 'postMessage'>;
	web: WebStore;
	oauth: OAuthClient;
	log: Logger;
	/** True when the store answers (GET /healthz). */
	storeAnswers(): Promise<boolean>;
	now?: () => number;
}

type Env = { Variables: { session: WebSession | null; sessionId: string | null; locale: Locale } };
type WebContext = Context<Env>;

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

/** `next` is only ever a path on this site: one `/`, then no second `/` or `\` (those leave the site). */
export function safeNext(next: string | undefined | null): string {
	if (!next || next.length > 1000) return '/';
	if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
	// Control characters and backslashes are read differently by browsers: none belongs in our paths.
	if ([...next].some((character) => character < ' ' || character === '\u007f' || character === '\\')) return '/';
	return next;
}

/** The dashboard's routes (DESIGN.md, "Web dashboard"), callable without a socket through `app.request`. */
export function createWebApp(deps: WebDeps): Hono<Env> {
	const now = deps.now ?? Date.now;
	const publicUrl = new URL(deps.config.webPublicUrl ?? 'http://127.0.0.1');
	const secure = publicUrl.protocol === 'https:';
	// `__Host-` names need Secure, which a plain-http test server cannot set: the name follows the scheme.
	const SESSION_COOKIE = secure ? '__Host-adstats_session' : 'adstats_session';
	const STATE_COOKIE = secure ? '__Host-adstats_login' : 'adstats_login';
	const cookieBase = { httpOnly: true, sameSite: 'Lax' as const, path: '/', secure };
	const redirectUri = `${publicUrl.origin}/auth/callback`;
	const staticFiles = loadStaticFiles();
	const foldHistory = createFoldedHistoryCache();
	const app = new Hono<Env>();

	app.use('*', async (c, next) => {
		await next();
		const headers = c.res.headers;
		headers.set('Content-Security-Policy', CSP);
		headers.set('X-Content-Type-Options', 'nosniff');
		headers.set('Referrer-Policy', 'same-origin');
		headers.set('X-Frame-Options', 'DENY');
		if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
	});

	// The only bodies are two-field forms.
	app.use('*', bodyLimit({ maxSize: 4096, onError: (c) => c.text('payload too large', 413) }));

	// Every POST comes from a form of ours: anything else is a cross-site request and changes nothing.
	app.use('*', async (c, next) => {
		if (c.req.method === 'POST' && c.req.header('origin') !== publicUrl.origin) {
			c.set('locale', pageLocale(c, null));
			return page(c, 403, translator(c.get('locale'))('web.refusedTitle'), t(c)('web.forbiddenOrigin'));
		}
		return next();
	});

	app.use('*', async (c, next) => {
		const id = getCookie(c, SESSION_COOKIE) ?? null;
		const session = id ? await deps.web.readSession(id) : null;
		c.set('sessionId', session ? id : null);
		c.set('session', session);
		c.set('locale', pageLocale(c, session));
		await next();
	});

	app.get('/static/:file', (c) => {
		const file: StaticFile | undefined = staticFiles.get(c.req.param('file'));
		if (!file) return notFound(c);
		return c.body(new Uint8Array(file.body), 200, {
			'Content-Type': file.contentType,
			'Cache-Control': 'public, max-age=3600',
		});
	});

	// Browsers ask for it on every first visit; no icon is better than a 404 in every log and console.
	app.get('/favicon.ico', (c) => c.body(null, 204, { 'Cache-Control': 'public, max-age=86400' }));

	app.get('/healthz', async (c) => {
		const answers = await deps.storeAnswers().catch(() => false);
		return c.text(answers ? 'ok' : 'store unavailable', answers ? 200 : 503);
	});

	app.get('/', async (c) => {
		const session = c.get('session');
		const tr = t(c);
		if (!session) return html200(c, tr('web.siteName'), loggedOutHome(tr));
		const servers = await visibleServers(deps, session);
		return html200(c, tr('web.siteName'), loggedInHome(tr, servers, langQuery(c, '?')));
	});

	app.get('/login', async (c) => {
		const state = await deps.web.createLoginState(safeNext(c.req.query('next')));
		setCookie(c, STATE_COOKIE, state, { ...cookieBase, maxAge: LOGIN_STATE_TTL_MS / 1000 });
		const target = new URL(deps.config.discordOauthUrl);
		target.searchParams.set('client_id', deps.config.applicationId ?? '');
		target.searchParams.set('redirect_uri', redirectUri);
		target.searchParams.set('response_type', 'code');
		target.searchParams.set('scope', 'identify guilds');
		target.searchParams.set('state', state);
		return c.redirect(target.toString(), 302);
	});

	app.get('/auth/callback', async (c) => {
		const tr = t(c);
		const failed = () =>
			page(c, 400, tr('web.loginFailedTitle'), tr('web.loginFailed'), [{ href: '/login', label: tr('web.tryAgain') }]);
		const cookieState = getCookie(c, STATE_COOKIE);
		deleteCookie(c, STATE_COOKIE, cookieBase);
		const state = c.req.query('state');
		// Compared before anything else: a state this browser was not given is refused without reading the store.
		if (!state || !cookieState || !sameSecret(state, cookieState)) return failed();
		const login = await deps.web.takeLoginState(state);
		const code = c.req.query('code');
		if (!login || c.req.query('error') !== undefined || !code) return failed();
		let user;
		let guilds;
		try {
			const accessToken = await deps.oauth.exchangeCode(code);
			// The token serves these two reads and is dropped: it never reaches the store or the browser.
			[user, guilds] = await Promise.all([deps.oauth.fetchUser(accessToken), deps.oauth.fetchGuilds(accessToken)]);
		} catch (error) {
			if (error instanceof OAuthExchangeError) {
				deps.log.info({ reason: error.message }, 'dashboard login refused');
				return failed();
			}
			throw error;
		}
		// A fresh id at every login: an id someone planted before the login opens nothing after it.
		await deps.web.deleteSession(c.get('sessionId') ?? '');
		const id = await deps.web.createSession({
			userId: user.id,
			username: user.username,
			globalName: user.globalName,
			locale: user.locale,
			guilds,
		});
		setCookie(c, SESSION_COOKIE, id, { ...cookieBase, maxAge: SESSION_TTL_MS / 1000 });
		deps.log.info({ userId: user.id }, 'dashboard login');
		return c.redirect(safeNext(login.next), 302);
	});

	app.post('/logout', async (c) => {
		await deps.web.deleteSession(c.get('sessionId') ?? '');
		deleteCookie(c, SESSION_COOKIE, cookieBase);
		return c.redirect('/', 303);
	});

	app.get('/me', async (c) => {
		const session = c.get('session');
		if (!session) return toLogin(c);
		const request = readRequest(c, null);
		if (request instanceof Response) return request;
		const tr = t(c);
		const loaded = await loadOrExplain(c, { scope: 'me', userId: session.userId, guildId: null }, request, null);
		if (loaded instanceof Response) return loaded;
		return html200(
			c,
			tr('web.myAccount'),
			statsBody(loaded, { ...pageOptions(c, '/me'), heading: tr('web.myAccount'), exportPath: '/me/export.csv' }),
		);
	});

	app.get('/servers/:guildId', async (c) => {
		const session = c.get('session');
		if (!session) return toLogin(c);
		const guildId = c.req.param('guildId');
		const access = await checkServerAccess(deps, session, guildId);
		if (access.kind === 'notFound') return notFound(c);
		if (access.kind === 'refused') return refusedPage(c, access.roleName ?? access.roleId);
		const request = readRequest(c, access.settings);
		if (request instanceof Response) return request;
		const tr = t(c);
		const target: StatsTarget = { scope: 'server', userId: session.userId, guildId };
		const loaded = await loadOrExplain(c, target, request, access.guild.name);
		if (loaded instanceof Response) return loaded;
		const token = access.managesServer ? await deps.web.publicToken(guildId) : null;
		const path = `/servers/${guildId}`;
		const heading = tr('web.serverAccount', { server: access.guild.name });
		return html200(
			c,
			heading,
			statsBody(loaded, {
				...pageOptions(c, path),
				heading,
				exportPath: `${path}/export.csv`,
				extra: access.managesServer
					? publicLinkForm(tr, guildId, token ? `${publicUrl.origin}/p/${token}` : null)
					: undefined,
			}),
		);
	});

	app.post('/servers/:guildId/public', async (c) => {
		const session = c.get('session');
		const tr = t(c);
		if (!session) return page(c, 401, tr('web.loginRequired'), tr('web.loginRequired'));
		const guildId = c.req.param('guildId');
		const access = await checkServerAccess(deps, session, guildId);
		if (access.kind === 'notFound') return notFound(c);
		if (access.kind !== 'allowed' || !access.managesServer) {
			return page(c, 403, tr('web.refusedTitle'), tr('web.manageServerNeeded'));
		}
		const form = await c.req.parseBody();
		const enabled = form.enabled;
		if (enabled !== 'on' && enabled !== 'off')
			return page(c, 400, tr('web.badRequestTitle'), tr('web.badRequestTitle'));
		if (enabled === 'on') await deps.web.enablePublic(guildId);
		else await deps.web.disablePublic(guildId);
		deps.log.info({ guildId, userId: session.userId, enabled }, 'public page changed');
		await postAudit(
			deps,
			guildId,
			{
				key: enabled === 'on' ? 'web.auditPublicOn' : 'web.auditPublicOff',
				vars: { actor: auditActor({ userId: session.userId, origin: 'dashboard' }), when: auditTime(now()) },
			},
			{ guildLocale: access.guild.preferredLocale, settings: access.settings },
		);
		return c.redirect(`/servers/${guildId}${langQuery(c, '?')}`, 303);
	});

	app.get('/p/:token', async (c) => {
		const guildId = await deps.web.guildOfPublicToken(c.req.param('token'));
		if (guildId === null) return notFound(c);
		const guild = await deps.botGuilds.guild(guildId);
		if (guild === null || (await deps.links.getServerLink(guildId)) === null) return notFound(c);
		const settings = await deps.settings.get(guildId);
		const langParam = c.req.query('lang');
		c.set('locale', isLocale(langParam) ? langParam : serverLanguage(settings, guild.preferredLocale));
		const request = readRequest(c, settings);
		if (request instanceof Response) return request;
		const tr = t(c);
		const loaded = await loadOrExplain(c, { scope: 'server', userId: '', guildId }, request, guild.name, true);
		if (loaded instanceof Response) return loaded;
		const heading = tr('web.publicHeading', { server: guild.name });
		c.header('X-Robots-Tag', 'noindex, nofollow');
		const body = html`${statsBody(loaded, { ...pageOptions(c, new URL(c.req.url).pathname), heading, exportPath: null })}
			<p class="note">${tr('web.publicPageNote')}</p>`;
		return c.html(
			renderPage({ locale: c.get('locale'), title: heading, user: null, noindex: true, here: here(c) }, body),
		);
	});

	app.get('/api/me/stats', async (c) => {
		const answer = await apiTarget(c, null);
		return answer instanceof Response ? answer : statsJsonAnswer(c, answer.target, answer.access);
	});

	app.get('/api/servers/:guildId/stats', async (c) => {
		const answer = await apiTarget(c, c.req.param('guildId'));
		return answer instanceof Response ? answer : statsJsonAnswer(c, answer.target, answer.access);
	});

	app.get('/me/export.csv', async (c) => {
		const answer = await apiTarget(c, null);
		return answer instanceof Response ? answer : csvAnswer(c, answer.target, answer.access);
	});

	app.get('/servers/:guildId/export.csv', async (c) => {
		const answer = await apiTarget(c, c.req.param('guildId'));
		return answer instanceof Response ? answer : csvAnswer(c, answer.target, answer.access);
	});

	app.notFound((c) => notFound(c as WebContext));

	app.onError((error, c) => {
		deps.log.error({ err: error, path: new URL(c.req.url).pathname }, 'dashboard request failed');
		const tr = translator(safeLocale(c as WebContext));
		if (new URL(c.req.url).pathname.startsWith('/api/'))
			return jsonError(c as WebContext, 500, 'internal', tr('web.error'));
		return page(c as WebContext, 500, tr('web.errorTitle'), tr('web.error'));
	});

	// ── helpers that need the deps ──

	/**
	 * Whose figures a JSON or CSV route reads: the member's own account (`guildId` null) or a server's they may
	 * see. Refusals answer as JSON, never a redirect: 401 without a session, 404, 403 naming the role.
	 */
	async function apiTarget(
		c: WebContext,
		guildId: string | null,
	): Promise<
		{ target: StatsTarget; access: { settings: Parameters<typeof completeStatsRequest>[1] } | null } | Response
	> {
		const session = c.get('session');
		if (!session) return jsonError(c, 401, 'unauthorized', t(c)('web.loginRequired'));
		if (guildId === null) return { target: { scope: 'me', userId: session.userId, guildId: null }, access: null };
		const access = await checkServerAccess(deps, session, guildId);
		if (access.kind === 'notFound') return jsonError(c, 404, 'not_found', t(c)('web.notFound'));
		if (access.kind === 'refused') return jsonRefused(c, access.roleName ?? access.roleId);
		return { target: { scope: 'server', userId: session.userId, guildId }, access };
	}

	async function statsJsonAnswer(
		c: WebContext,
		target: StatsTarget,
		access: { settings: Parameters<typeof completeStatsRequest>[1] } | null,
	) {
		const request = readRequest(c, access?.settings ?? null, true);
		if (request instanceof Response) return request;
		try {
			const view = { ...request, locale: c.get('locale'), now: now() };
			const stats = await loadDashboardStats(deps, target, view, foldHistory);
			return c.json(statsJson(stats));
		} catch (error) {
			return expectedJsonError(c, error);
		}
	}

	async function csvAnswer(
		c: WebContext,
		target: StatsTarget,
		access: { settings: Parameters<typeof completeStatsRequest>[1] } | null,
	) {
		const request = readRequest(c, access?.settings ?? null, true);
		if (request instanceof Response) return request;
		try {
			const file = await exportStats(deps, target, { days: request.days, now: now() });
			return c.body(file.csv, 200, {
				'Content-Type': 'text/csv; charset=utf-8',
				'Content-Disposition': `attachment; filename="${file.fileName}"`,
			});
		} catch (error) {
			return expectedJsonError(c, error);
		}
	}

	async function loadOrExplain(
		c: WebContext,
		target: StatsTarget,
		request: StatsRequest,
		serverName: string | null,
		isPublic = false,
	): Promise<DashboardStats | Response> {
		try {
			const view = { days: request.days, metric: request.metric, locale: c.get('locale'), serverName, now: now() };
			return await loadDashboardStats(deps, target, view, foldHistory);
		} catch (error) {
			const message = describeExpectedError(error);
			if (message === null) throw error;
			const tr = t(c);
			// The how-to is an answer, not a failure: /me without a link is a normal first visit.
			const status = error instanceof UserFacingError && error.key === 'stats.noUserLink' ? 200 : 503;
			const title = target.scope === 'me' ? tr('web.myAccount') : (serverName ?? tr('web.siteName'));
			if (isPublic) return notFound(c);
			return page(c, status, title, discordTextToHtml(renderMessage(tr, message)));
		}
	}

	function expectedJsonError(c: WebContext, error: unknown): Response {
		const message = describeExpectedError(error);
		if (message === null) throw error;
		const text = renderMessage(t(c), message);
		if (error instanceof UserFacingError && error.key === 'stats.noUserLink')
			return jsonError(c, 404, 'not_linked', text);
		return jsonError(c, 503, 'unavailable', text);
	}

	function toLogin(c: WebContext): Response {
		const url = new URL(c.req.url);
		return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
	}

	function notFound(c: WebContext): Response {
		const tr = translator(safeLocale(c));
		if (new URL(c.req.url).pathname.startsWith('/api/')) return jsonError(c, 404, 'not_found', tr('web.notFound'));
		return page(c, 404, tr('web.notFoundTitle'), tr('web.notFound'), [{ href: '/', label: tr('web.back') }]);
	}

	function refusedPage(c: WebContext, role: string): Response {
		const tr = t(c);
		return page(c, 403, tr('web.refusedTitle'), tr('web.refusedRole', { role }), [
			{ href: '/', label: tr('web.back') },
		]);
	}

	function jsonRefused(c: WebContext, role: string): Response {
		return jsonError(c, 403, 'forbidden', t(c)('web.refusedRole', { role }));
	}

	function page(
		c: WebContext,
		status: 200 | 400 | 401 | 403 | 404 | 500 | 503,
		title: string,
		text: SafeHtml | string,
		links: { href: string; label: string }[] = [],
	): Response {
		return c.html(renderPage(frame(c, title), messageBody(title, text, links)), status);
	}

	function html200(c: WebContext, title: string, body: SafeHtml): Response {
		return c.html(renderPage(frame(c, title), body));
	}

	function frame(c: WebContext, title: string) {
		const session = c.get('session') ?? null;
		const user: PageUser | null = session ? { name: session.globalName ?? session.username } : null;
		return { locale: safeLocale(c), title, user, here: here(c) };
	}

	return app;
}

function t(c: WebContext): Translate {
	return translator(safeLocale(c));
}

function safeLocale(c: WebContext): Locale {
	return (c.get('locale') as Locale | undefined) ?? 'en-US';
}

/** `?lang=` first, then the member's Discord locale, then the browser's first language we have. */
function pageLocale(c: WebContext, session: WebSession | null): Locale {
	const asked = c.req.query('lang');
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

/** `?lang=xx` (or `&lang=xx`) when the member chose a language in this request, so links keep it. */
function langQuery(c: WebContext, joiner: '?' | '&'): string {
	const asked = c.req.query('lang');
	return isLocale(asked) ? `${joiner}lang=${asked}` : '';
}

/** The current path and query without `lang`, for the language links. */
function here(c: WebContext): string {
	const url = new URL(c.req.url);
	url.searchParams.delete('lang');
	return url.pathname + url.search;
}

function pageOptions(c: WebContext, path: string) {
	const asked = c.req.query('lang');
	return { locale: safeLocale(c), path, lang: isLocale(asked) ? asked : null };
}

/**
 * `days` and `metric` as `/stats` takes them, with the server's defaults; anything else is a 400 (a page, or JSON
 * on the JSON and CSV routes). An empty field (a GET form left alone) counts as absent.
 */
function readRequest(
	c: WebContext,
	settings: Parameters<typeof completeStatsRequest>[1] | null,
	asJson = false,
): StatsRequest | Response {
	const days = c.req.query('days');
	const metric = c.req.query('metric');
	try {
		const options = parseStatsOptions({
			scope: 'me',
			days: days === undefined || days === '' ? null : /^\d{1,3}$/.test(days) ? Number(days) : -1,
			metric: metric === undefined || metric === '' ? null : metric,
		});
		return completeStatsRequest(options, settings ?? undefined);
	} catch (error) {
		if (!(error instanceof UserFacingError)) throw error;
		const tr = t(c);
		const text = renderMessage(tr, { key: error.key, vars: error.vars });
		if (asJson) return jsonError(c, 400, 'bad_request', text);
		return c.html(
			renderPage(
				{ locale: safeLocale(c), title: tr('web.badRequestTitle'), user: null },
				messageBody(tr('web.badRequestTitle'), discordTextToHtml(text)),
			),
			400,
		);
	}
}

function jsonError(c: WebContext, status: 400 | 401 | 403 | 404 | 500 | 503, code: string, message: string): Response {
	return c.json({ error: { code, message } }, status);
}
