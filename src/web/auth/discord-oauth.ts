import { request } from 'undici';

/** The API version the bot's REST client speaks; the user's calls use the same. */
const API_VERSION = 'v10';
const REQUEST_TIMEOUT_MS = 10_000;
/** `/users/@me/guilds` pages at 200; a member in more servers than this sees the first ones only. */
const GUILDS_PAGE = 200;

/** What the dashboard keeps of the user after login (no token). */
export interface DiscordUser {
	id: string;
	username: string;
	globalName: string | null;
	/** Discord's client language, e.g. `de`; null when Discord did not say. */
	locale: string | null;
}

/** A guild of `/users/@me/guilds`: `permissions` is guild-level, without channel overwrites. */
export interface UserGuild {
	id: string;
	name: string;
	owner: boolean;
	/** Decimal string of the permission bits, as Discord sends it (parse with BigInt). */
	permissions: string;
}

/** Discord refused the code (`invalid_grant`) or answered something the login cannot use. */
export class OAuthExchangeError extends Error {
	override name = 'OAuthExchangeError';
}

export interface OAuthClientOptions {
	/** `DISCORD_API_URL`, without the version. */
	apiUrl: string;
	clientId: string;
	clientSecret: string;
	redirectUri: string;
}

export interface OAuthClient {
	/** The authorization code for an access token; the token is used for two reads and then dropped. */
	exchangeCode(code: string): Promise<string>;
	fetchUser(accessToken: string): Promise<DiscordUser>;
	fetchGuilds(accessToken: string): Promise<UserGuild[]>;
}

/**
 * Discord's authorization-code flow on undici, against `DISCORD_API_URL`, so the local stand-in can serve it.
 * No error message holds the code, a token or the client secret.
 */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
	const base = `${options.apiUrl.replace(/\/+$/, '')}/${API_VERSION}`;
	return {
		async exchangeCode(code) {
			// Discord reads the token route's fields from a form body only.
			const body = new URLSearchParams({
				grant_type: 'authorization_code',
				code,
				redirect_uri: options.redirectUri,
				client_id: options.clientId,
				client_secret: options.clientSecret,
			}).toString();
			const answer = await request(`${base}/oauth2/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
				body,
				headersTimeout: REQUEST_TIMEOUT_MS,
				bodyTimeout: REQUEST_TIMEOUT_MS,
			});
			const json = (await answer.body.json().catch(() => null)) as Record<string, unknown> | null;
			if (answer.statusCode !== 200 || typeof json?.access_token !== 'string') {
				const reason = typeof json?.error === 'string' ? json.error : `status ${answer.statusCode}`;
				throw new OAuthExchangeError(`token exchange refused: ${reason.slice(0, 60)}`);
			}
			return json.access_token;
		},
		async fetchUser(accessToken) {
			const json = (await getJson(`${base}/users/@me`, accessToken)) as Record<string, unknown>;
			if (typeof json.id !== 'string' || typeof json.username !== 'string') {
				throw new OAuthExchangeError('/users/@me answered without an id');
			}
			return {
				id: json.id,
				username: json.username,
				globalName: typeof json.global_name === 'string' ? json.global_name : null,
				locale: typeof json.locale === 'string' ? json.locale : null,
			};
		},
		async fetchGuilds(accessToken) {
			const json = await getJson(`${base}/users/@me/guilds?limit=${GUILDS_PAGE}`, accessToken);
			if (!Array.isArray(json)) throw new OAuthExchangeError('/users/@me/guilds answered no list');
			return json.flatMap((raw: Record<string, unknown>) =>
				typeof raw.id === 'string'
					? [
							{
								id: raw.id,
								name: typeof raw.name === 'string' ? raw.name : '',
								owner: raw.owner === true,
								permissions: typeof raw.permissions === 'string' ? raw.permissions : '0',
							},
						]
					: [],
			);
		},
	};
}

async function getJson(url: string, accessToken: string): Promise<unknown> {
	const answer = await request(url, {
		headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
		headersTimeout: REQUEST_TIMEOUT_MS,
		bodyTimeout: REQUEST_TIMEOUT_MS,
	});
	if (answer.statusCode !== 200) {
		await answer.body.dump();
		throw new OAuthExchangeError(`${new URL(url).pathname} answered ${answer.statusCode}`);
	}
	return answer.body.json();
}

/** Manage Server from `/users/@me/guilds`: the owner, Administrator or Manage Server. */
export function userGuildManages(guild: Pick<UserGuild, 'owner' | 'permissions'>): boolean {
	if (guild.owner) return true;
	let bits = 0n;
	try {
		bits = BigInt(guild.permissions);
	} catch {
		return false;
	}
	return (bits & (MANAGE_GUILD | ADMINISTRATOR)) !== 0n;
}

export const ADMINISTRATOR = 1n << 3n;
export const MANAGE_GUILD = 1n << 5n;
