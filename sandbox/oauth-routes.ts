import { OAUTH_TOKEN_LIFETIME_S } from './oauth.js';
import type { OAuthGrant } from './oauth.js';
import { invalidFormBody, oauthError, refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import type { SandboxState } from './state.js';

const MAX_GUILDS_PER_PAGE = 200;

const isHttpUrl = (value: string): boolean => {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
};

/** Scopes as OAuth2 writes them: separated by spaces (a `+` in a query is already a space). */
const scopesOf = (value: string | null | undefined): string[] => (value ?? '').split(' ').filter(Boolean);

function badAuthorize(state: SandboxState, request: RestRequest, error: string, description: string): RestReply {
	return oauthError(state, request, 400, error, description);
}

/**
 * Discord's consent screen, decided at once: the user set by `setOAuthUser` approves (302 to `redirect_uri` with
 * `code` and `state`), or with none set denies (`error=access_denied`). A request Discord would not show a screen
 * for (wrong client, unusable redirect URI, no `identify`) gets 400 and no redirect.
 */
function authorize(request: RestRequest, state: SandboxState): RestReply {
	const { query } = request;
	const clientId = query.get('client_id') ?? '';
	const redirectUri = query.get('redirect_uri') ?? '';
	const scopes = scopesOf(query.get('scope'));
	if (clientId !== state.settings.applicationId) {
		return badAuthorize(state, request, 'invalid_client', `Unknown client_id ${JSON.stringify(clientId)}`);
	}
	if (!isHttpUrl(redirectUri)) {
		return badAuthorize(state, request, 'invalid_request', 'redirect_uri must be an absolute http(s) URL');
	}
	const registered = state.settings.oauthRedirectUris;
	if (registered.length > 0 && !registered.includes(redirectUri)) {
		return badAuthorize(state, request, 'invalid_request', 'Invalid "redirect_uri" in request.');
	}
	if (query.get('response_type') !== 'code') {
		return badAuthorize(state, request, 'unsupported_response_type', 'response_type must be "code"');
	}
	if (!scopes.includes('identify')) {
		return badAuthorize(state, request, 'invalid_scope', 'scope must include identify');
	}
	const target = new URL(redirectUri);
	const userId = state.oauth.approver;
	if (userId === null) {
		target.searchParams.set('error', 'access_denied');
		target.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
	} else {
		target.searchParams.set('code', state.oauth.issueCode(userId, scopes, clientId, redirectUri));
	}
	const stateParam = query.get('state');
	if (stateParam !== null) target.searchParams.set('state', stateParam);
	return { status: 302, headers: { location: target.toString(), 'cache-control': 'no-store' } };
}

/** Client authentication: HTTP Basic, or `client_id` + `client_secret` in the form. */
function clientOf(request: RestRequest, form: Record<string, string>): { id: string; secret: string } | undefined {
	const header = request.authorization ?? '';
	if (header.startsWith('Basic ')) {
		const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon < 0) return undefined;
		return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
	}
	if (form.client_id === undefined || form.client_secret === undefined) return undefined;
	return { id: form.client_id, secret: form.client_secret };
}

/** The fields of a token-route request from an authenticated client, or the answer refusing it. */
function formOf(state: SandboxState, request: RestRequest): { form: Record<string, string> } | { refused: RestReply } {
	if (request.body === undefined) {
		// Discord reads the token routes' fields from a form only: from JSON, or no body, it reads none.
		const description = 'the body must be application/x-www-form-urlencoded';
		return { refused: oauthError(state, request, 400, 'invalid_request', description) };
	}
	const form = request.body as Record<string, string>;
	const client = clientOf(request, form);
	if (client?.id !== state.settings.applicationId || client.secret !== state.settings.clientSecret) {
		return { refused: oauthError(state, request, 401, 'invalid_client', 'client authentication failed') };
	}
	return { form };
}

function tokenAnswer(grant: OAuthGrant): RestReply {
	return {
		status: 200,
		headers: { 'cache-control': 'no-store' },
		body: {
			access_token: grant.accessToken,
			token_type: 'Bearer',
			expires_in: OAUTH_TOKEN_LIFETIME_S,
			refresh_token: grant.refreshToken,
			scope: grant.scopes.join(' '),
		},
	};
}

function token(request: RestRequest, state: SandboxState): RestReply {
	const read = formOf(state, request);
	if ('refused' in read) return read.refused;
	const fields = read.form;
	let result;
	if (fields.grant_type === 'authorization_code') {
		result = state.oauth.redeemCode(fields.code ?? '', state.settings.applicationId, fields.redirect_uri ?? '');
	} else if (fields.grant_type === 'refresh_token') {
		result = state.oauth.refresh(fields.refresh_token ?? '');
	} else {
		const grantType = fields.grant_type ?? 'None';
		return oauthError(state, request, 400, 'unsupported_grant_type', `Grant type ${grantType} is not supported`);
	}
	if ('error' in result) return oauthError(state, request, 400, result.error, result.description);
	return tokenAnswer(result);
}

function revoke(request: RestRequest, state: SandboxState): RestReply {
	const read = formOf(state, request);
	if ('refused' in read) return read.refused;
	state.oauth.revoke(read.form.token ?? '');
	return { status: 200, body: {} };
}

/** A bearer token without the scope a route needs gets what Discord gives: 401. */
function missingScope(state: SandboxState, request: RestRequest, scope: string): RestReply | undefined {
	if (!request.grant || request.grant.scopes.includes(scope)) return undefined;
	return refuse(state, request, 401, 0, '401: Unauthorized');
}

function currentUser(request: RestRequest, state: SandboxState): RestReply {
	if (!request.grant) return { status: 200, body: state.settings.botUser };
	const refused = missingScope(state, request, 'identify');
	if (refused) return refused;
	return { status: 200, body: state.users.self(request.grant.userId) };
}

interface UserGuild {
	id: string;
	[field: string]: unknown;
}

/** Every guild `userId` is in, with the bot or not, sorted by id as Discord lists them. */
function guildsOf(state: SandboxState, userId: string): UserGuild[] {
	const isBot = userId === state.settings.botUser.id;
	const guilds: UserGuild[] = state.guilds
		// The bot's own list leaves out the guilds it was removed from; a member's still holds them.
		.filter((guild) => guild.isMember(userId) && !(isBot && state.removedGuilds.has(guild.id)))
		.map((guild) => guild.toUserGuild(userId) as UserGuild);
	for (const guild of state.guildsWithoutBot.values()) {
		const member = guild.members.get(userId);
		if (!member) continue;
		const { id, name } = guild;
		guilds.push({
			id,
			name,
			icon: null,
			banner: null,
			owner: member.owner,
			permissions: member.permissions,
			features: [],
		});
	}
	return guilds.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

/** `GET /users/@me/guilds`: `limit` 1–200 (default 200), `after` / `before` by guild id. */
function currentUserGuilds(request: RestRequest, state: SandboxState): RestReply {
	const refused = missingScope(state, request, 'guilds');
	if (refused) return refused;
	const limitText = request.query.get('limit');
	const limit = limitText === null ? MAX_GUILDS_PER_PAGE : Number(limitText);
	if (!Number.isInteger(limit) || limit < 1 || limit > MAX_GUILDS_PER_PAGE) {
		const message = `int value should be between 1 and ${MAX_GUILDS_PER_PAGE}.`;
		return invalidFormBody(state, request, [{ path: ['limit'], code: 'NUMBER_TYPE_MAX', message, source: 'rules' }]);
	}
	const after = request.query.get('after');
	const before = request.query.get('before');
	let guilds = guildsOf(state, request.grant?.userId ?? state.settings.botUser.id);
	if (after !== null && /^\d+$/.test(after)) guilds = guilds.filter((guild) => BigInt(guild.id) > BigInt(after));
	if (before !== null && /^\d+$/.test(before)) {
		guilds = guilds.filter((guild) => BigInt(guild.id) < BigInt(before)).slice(-limit);
	}
	return { status: 200, body: guilds.slice(0, limit) };
}

export const oauthRoutes: Route[] = [
	route('GET', '/oauth2/authorize', false, authorize),
	route('POST', '/oauth2/token', false, token, { form: true }),
	route('POST', '/oauth2/token/revoke', false, revoke, { form: true }),
	route('GET', '/users/@me', 'bot-or-bearer', currentUser),
	route('GET', '/users/@me/guilds', 'bot-or-bearer', currentUserGuilds),
];
