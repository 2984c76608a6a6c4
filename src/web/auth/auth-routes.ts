import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createDigestLocaleTracker, type DigestLocaleContext } from '../../digests/digest-locale.js';
import { OAuthExchangeError } from './discord-oauth.js';
import { HttpError } from '../http-error.js';
import { LOGIN_STATE_TTL_MS, SESSION_TTL_MS, sameSecret } from './sessions.js';
import type { Site } from '../site.js';
import type { WebDeps } from '../web-deps.js';
import type { WebEnv } from '../web-env.js';

/** `next` is only ever a path on this site: one `/`, then no second `/` or `\` (those leave the site). */
export function safeNext(next: string | undefined | null): string {
	if (!next || next.length > 1000) return '/';
	if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
	// Control characters and backslashes are read differently by browsers: none belongs in our paths.
	if ([...next].some((character) => character < ' ' || character === '\u007f' || character === '\\')) return '/';
	return next;
}

/** A missing, wrong, expired or reused state, or a refused authorization: no session, a way to try again. */
const loginFailed = () =>
	new HttpError(
		400,
		{ key: 'web.loginFailed' },
		{ title: { key: 'web.loginFailedTitle' }, links: [{ href: '/login', label: { key: 'web.tryAgain' } }] },
	);

/** Discord OAuth2 login (`identify guilds`), the session it creates, and logout. */
export function authRoutes(
	deps: Pick<WebDeps, 'config' | 'web' | 'oauth' | 'log'> & DigestLocaleContext,
	site: Site,
): Hono<WebEnv> {
	const auth = new Hono<WebEnv>();
	// Logging in is seeing the member's Discord language too: their digest follows it, as after a command.
	const digestLocales = createDigestLocaleTracker(deps);
	const redirectUri = `${site.origin}/auth/callback`;

	auth.get('/login', async (c) => {
		const state = await deps.web.createLoginState(safeNext(c.req.query('next')));
		setCookie(c, site.stateCookie, state, { ...site.cookieBase, maxAge: LOGIN_STATE_TTL_MS / 1000 });
		const target = new URL(deps.config.discordOauthUrl);
		target.searchParams.set('client_id', deps.config.applicationId ?? '');
		target.searchParams.set('redirect_uri', redirectUri);
		target.searchParams.set('response_type', 'code');
		target.searchParams.set('scope', 'identify guilds');
		target.searchParams.set('state', state);
		return c.redirect(target.toString(), 302);
	});

	auth.get('/auth/callback', async (c) => {
		const cookieState = getCookie(c, site.stateCookie);
		deleteCookie(c, site.stateCookie, site.cookieBase);
		const state = c.req.query('state');
		// Compared before anything else: a state this browser was not given is refused without reading the store.
		if (!state || !cookieState || !sameSecret(state, cookieState)) throw loginFailed();
		const login = await deps.web.takeLoginState(state);
		const code = c.req.query('code');
		if (!login || c.req.query('error') !== undefined || !code) throw loginFailed();
		const { user, guilds } = await readDiscordAccount(code).catch((error: unknown) => {
			if (!(error instanceof OAuthExchangeError)) throw error;
			deps.log.info({ reason: error.message }, 'dashboard login refused');
			throw loginFailed();
		});
		// A fresh id at every login: an id someone planted before the login opens nothing after it.
		await deps.web.deleteSession(c.get('sessionId') ?? '');
		const id = await deps.web.createSession({
			userId: user.id,
			username: user.username,
			globalName: user.globalName,
			locale: user.locale,
			guilds,
		});
		setCookie(c, site.sessionCookie, id, { ...site.cookieBase, maxAge: SESSION_TTL_MS / 1000 });
		deps.log.info({ userId: user.id }, 'dashboard login');
		if (user.locale) {
			await digestLocales.seen(user.id, user.locale).catch((error: unknown) => {
				deps.log.warn({ err: error }, "could not keep the member's digest locale");
			});
		}
		return c.redirect(safeNext(login.next), 302);
	});

	auth.post('/logout', async (c) => {
		await deps.web.deleteSession(c.get('sessionId') ?? '');
		deleteCookie(c, site.sessionCookie, site.cookieBase);
		return c.redirect('/', 303);
	});

	/** The token serves these two reads and is dropped: it never reaches the store or the browser. */
	async function readDiscordAccount(code: string) {
		const accessToken = await deps.oauth.exchangeCode(code);
		const [user, guilds] = await Promise.all([deps.oauth.fetchUser(accessToken), deps.oauth.fetchGuilds(accessToken)]);
		return { user, guilds };
	}

	return auth;
}
