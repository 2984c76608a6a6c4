import type { Config } from '../config.js';

/** Where the dashboard is served, and the cookies that follows from it. */
export interface Site {
	/** `WEB_PUBLIC_URL`'s origin: every POST must come from it, and the OAuth2 redirect goes back to it. */
	origin: string;
	secure: boolean;
	sessionCookie: string;
	stateCookie: string;
	cookieBase: { httpOnly: true; sameSite: 'Lax'; path: '/'; secure: boolean };
}

export function siteOf(config: Pick<Config, 'webPublicUrl'>): Site {
	const publicUrl = new URL(config.webPublicUrl ?? 'http://127.0.0.1');
	const secure = publicUrl.protocol === 'https:';
	return {
		origin: publicUrl.origin,
		secure,
		// `__Host-` names need Secure, which a plain-http test server cannot set: the name follows the scheme.
		sessionCookie: secure ? '__Host-adstats_session' : 'adstats_session',
		stateCookie: secure ? '__Host-adstats_login' : 'adstats_login',
		cookieBase: { httpOnly: true, sameSite: 'Lax', path: '/', secure },
	};
}
