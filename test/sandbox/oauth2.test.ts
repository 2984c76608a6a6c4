import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { ALL_PERMISSIONS, MEMBER_PERMISSIONS, OAUTH_CODE_LIFETIME_MS, Permission } from '../../sandbox/index.js';
import type { DiscordSandbox } from '../../sandbox/index.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import { checkAgainstSpec } from '../../sandbox/openapi-validator.js';

const REDIRECT = 'http://127.0.0.1:9/auth/callback';
const USER = '310000000000000101';
const SCOPE = 'identify guilds';

type TokenAnswer = {
	access_token: string;
	token_type: string;
	expires_in: number;
	refresh_token: string;
	scope: string;
};

let sandbox: DiscordSandbox;
let clock = Date.parse('2026-11-30T09:00:00Z');

before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 3, now: () => clock });
});
after(() => sandbox.close());
beforeEach(() => {
	sandbox.clearRecords();
	sandbox.setOAuthUser(USER, { username: 'alice', globalName: 'Alice', locale: 'ja' });
});

function authorizeUrl(params: Record<string, string> = {}): string {
	const url = new URL(sandbox.oauthAuthorizeUrl);
	const query = {
		client_id: sandbox.applicationId,
		redirect_uri: REDIRECT,
		response_type: 'code',
		scope: SCOPE,
		state: 'st4te',
		...params,
	};
	for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
	return url.toString();
}

/** Follows the authorization page to the redirect and answers its query. */
async function authorize(params: Record<string, string> = {}): Promise<URLSearchParams> {
	const response = await fetch(authorizeUrl(params), { redirect: 'manual' });
	assert.equal(response.status, 302);
	const location = new URL(response.headers.get('location')!);
	assert.equal(`${location.origin}${location.pathname}`, params.redirect_uri ?? REDIRECT);
	return location.searchParams;
}

function exchange(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
	return fetch(sandbox.oauthTokenUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		body: new URLSearchParams(fields).toString(),
	});
}

function codeGrant(code: string, extra: Record<string, string> = {}): Record<string, string> {
	return {
		grant_type: 'authorization_code',
		code,
		redirect_uri: REDIRECT,
		client_id: sandbox.applicationId,
		client_secret: sandbox.clientSecret,
		...extra,
	};
}

async function login(): Promise<TokenAnswer> {
	const code = (await authorize()).get('code')!;
	const response = await exchange(codeGrant(code));
	assert.equal(response.status, 200);
	return (await response.json()) as TokenAnswer;
}

function api(path: string, authorization: string): Promise<Response> {
	return fetch(`${sandbox.apiUrl}/v10${path}`, { headers: { authorization } });
}

test('the code flow: authorize redirects with code and state, the form exchange answers tokens, /users/@me the user', async () => {
	const query = await authorize();
	assert.equal(query.get('state'), 'st4te');
	const code = query.get('code');
	assert.ok(code && code.length >= 20);

	const response = await exchange(codeGrant(code));
	assert.equal(response.status, 200);
	const token = (await response.json()) as TokenAnswer;
	assert.equal(token.token_type, 'Bearer');
	assert.equal(token.expires_in, 604800);
	assert.equal(token.scope, 'identify guilds');
	assert.ok(token.access_token && token.refresh_token && token.access_token !== token.refresh_token);

	const me = await api('/users/@me', `Bearer ${token.access_token}`);
	assert.equal(me.status, 200);
	const user = (await me.json()) as Record<string, unknown>;
	assert.deepEqual(
		{ id: user.id, username: user.username, global_name: user.global_name, avatar: user.avatar, locale: user.locale },
		{ id: USER, username: 'alice', global_name: 'Alice', avatar: null, locale: 'ja' },
	);
	assert.deepEqual(checkAgainstSpec('UserPIIResponse', user), []);

	const bot = (await (await api('/users/@me', `Bot ${sandbox.token}`)).json()) as { id: string; bot: boolean };
	assert.deepEqual([bot.id, bot.bot], [sandbox.botUserId, true], 'the bot token still answers the bot');
	assert.deepEqual(sandbox.rejections, []);
	sandbox.assertNoViolations();
});

test('the client may authenticate with HTTP Basic instead of form fields; unversioned /api/oauth2/token works too', async () => {
	const code = (await authorize()).get('code')!;
	const basic = Buffer.from(`${sandbox.applicationId}:${sandbox.clientSecret}`).toString('base64');
	const response = await fetch(`${sandbox.apiUrl}/oauth2/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
		body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).toString(),
	});
	assert.equal(response.status, 200);
});

test('a code works once: reused and unknown codes get invalid_grant', async () => {
	const code = (await authorize()).get('code')!;
	assert.equal((await exchange(codeGrant(code))).status, 200);
	for (const attempt of [code, 'not-a-code']) {
		const response = await exchange(codeGrant(attempt));
		assert.equal(response.status, 400);
		const body = (await response.json()) as { error: string; error_description: string };
		assert.equal(body.error, 'invalid_grant');
		assert.match(body.error_description, /code/);
	}
});

test('a code expires after 10 minutes on the stand-in clock', async () => {
	const code = (await authorize()).get('code')!;
	clock += OAUTH_CODE_LIFETIME_MS;
	const response = await exchange(codeGrant(code));
	assert.equal(response.status, 400);
	assert.equal(((await response.json()) as { error: string }).error, 'invalid_grant');
});

test('the exchange takes a form only: a JSON body is refused with 400 and no token', async () => {
	const code = (await authorize()).get('code')!;
	const response = await fetch(sandbox.oauthTokenUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(codeGrant(code)),
	});
	assert.equal(response.status, 400);
	assert.equal(((await response.json()) as { error: string }).error, 'invalid_request');
	assert.equal((await exchange(codeGrant(code))).status, 200, 'the refused attempt did not use the code');
});

test('a wrong secret gets 401 invalid_client, another redirect_uri invalid_grant, another grant type 400', async () => {
	const code = (await authorize()).get('code')!;
	const wrongSecret = await exchange(codeGrant(code, { client_secret: 'nope' }));
	assert.equal(wrongSecret.status, 401);
	assert.equal(((await wrongSecret.json()) as { error: string }).error, 'invalid_client');
	const otherRedirect = await exchange(codeGrant(code, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }));
	assert.equal(otherRedirect.status, 400);
	assert.match(((await otherRedirect.json()) as { error_description: string }).error_description, /redirect_uri/);
	const password = await exchange(codeGrant(code, { grant_type: 'password' }));
	assert.equal(((await password.json()) as { error: string }).error, 'unsupported_grant_type');
});

test('a user who denies comes back with error=access_denied and the state', async () => {
	sandbox.setOAuthUser(null);
	const query = await authorize();
	assert.equal(query.get('error'), 'access_denied');
	assert.equal(query.get('state'), 'st4te');
	assert.equal(query.get('code'), null);
});

test('the authorization page refuses with 400 (no redirect): another client, a relative redirect, no identify', async () => {
	const cases: Record<string, string>[] = [
		{ client_id: '1234' },
		{ redirect_uri: '/auth/callback' },
		{ redirect_uri: 'javascript:alert(1)' },
		{ scope: 'guilds' },
		{ response_type: 'token' },
	];
	for (const params of cases) {
		const response = await fetch(authorizeUrl(params), { redirect: 'manual' });
		assert.equal(response.status, 400, JSON.stringify(params));
		assert.equal(response.headers.get('location'), null);
	}
});

test('an unknown, revoked or expired bearer token gets 401 like Discord', async () => {
	const unknown = await api('/users/@me', 'Bearer nope');
	assert.equal(unknown.status, 401);
	assert.deepEqual(await unknown.json(), { message: '401: Unauthorized', code: 0 });

	const revoked = await login();
	const form = { token: revoked.access_token, client_id: sandbox.applicationId, client_secret: sandbox.clientSecret };
	const revoke = await fetch(`${sandbox.oauthTokenUrl}/revoke`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(form).toString(),
	});
	assert.equal(revoke.status, 200);
	assert.equal((await api('/users/@me', `Bearer ${revoked.access_token}`)).status, 401);

	const expiring = await login();
	clock += 604800 * 1000;
	assert.equal((await api('/users/@me', `Bearer ${expiring.access_token}`)).status, 401);
});

test('a token without the guilds scope cannot list guilds', async () => {
	const code = (await authorize({ scope: 'identify' })).get('code')!;
	const token = (await (await exchange(codeGrant(code))).json()) as TokenAnswer;
	assert.equal(token.scope, 'identify');
	assert.equal((await api('/users/@me', `Bearer ${token.access_token}`)).status, 200);
	assert.equal((await api('/users/@me/guilds', `Bearer ${token.access_token}`)).status, 401);
});

test('/users/@me/guilds lists the member guilds by id, with permission strings, and pages with limit and after', async () => {
	const [first, second, third] = sandbox.guildIds as [string, string, string];
	const manager = sandbox.addRole(second, { name: 'Manager', permissions: Permission.ManageGuild });
	sandbox.setMember(first, USER, { roles: [] });
	sandbox.setMember(second, USER, { roles: [manager.id] });
	sandbox.setMember(third, USER, { owner: true });
	sandbox.setGuildName(first, 'Renamed <script>');
	const without = sandbox.addGuildWithoutBot(USER, { id: '9' + third.slice(1), name: 'No bot here' });
	const { access_token: accessToken } = await login();

	const all = (await (await api('/users/@me/guilds', `Bearer ${accessToken}`)).json()) as Record<string, unknown>[];
	assert.deepEqual(
		all.map((guild) => guild.id),
		[first, second, third, without],
	);
	for (const guild of all) assert.deepEqual(checkAgainstSpec('MyGuildResponse', guild), [], String(guild.id));
	assert.equal(all[0]!.name, 'Renamed <script>');
	assert.equal(all[0]!.permissions, MEMBER_PERMISSIONS);
	assert.equal(typeof all[1]!.permissions, 'string');
	assert.ok((BigInt(all[1]!.permissions as string) & Permission.ManageGuild) !== 0n, 'the role grants Manage Server');
	assert.deepEqual([all[2]!.owner, all[2]!.permissions], [true, ALL_PERMISSIONS.toString()]);
	assert.deepEqual([all[3]!.name, all[3]!.owner], ['No bot here', false]);

	const page = async (query: string) =>
		((await (await api(`/users/@me/guilds?${query}`, `Bearer ${accessToken}`)).json()) as { id: string }[]).map(
			(guild) => guild.id,
		);
	assert.deepEqual(await page('limit=2'), [first, second]);
	assert.deepEqual(await page(`limit=2&after=${second}`), [third, without]);
	assert.deepEqual(await page(`after=${without}`), []);
	assert.deepEqual(await page(`before=${third}&limit=1`), [second]);
	const tooMany = await api('/users/@me/guilds?limit=201', `Bearer ${accessToken}`);
	assert.equal(tooMany.status, 400);
	assert.equal(((await tooMany.json()) as { code: number }).code, 50035);
	sandbox.clearRecords();

	sandbox.removeMember(second, USER);
	assert.deepEqual(await page(''), [first, third, without], 'a member who left is no longer listed');
	assert.equal((await api(`/guilds/${without}`, `Bot ${sandbox.token}`)).status, 404, 'the bot is not in it');
});

test('a refresh token trades for a new pair and retires the old one', async () => {
	const old = await login();
	const refreshed = await exchange({
		grant_type: 'refresh_token',
		refresh_token: old.refresh_token,
		client_id: sandbox.applicationId,
		client_secret: sandbox.clientSecret,
	});
	assert.equal(refreshed.status, 200);
	const token = (await refreshed.json()) as TokenAnswer;
	assert.equal((await api('/users/@me', `Bearer ${token.access_token}`)).status, 200);
	assert.equal((await api('/users/@me', `Bearer ${old.access_token}`)).status, 401);
	assert.equal(sandbox.oauthGrants.filter((grant) => !grant.revoked && grant.userId === USER).length >= 1, true);
});
