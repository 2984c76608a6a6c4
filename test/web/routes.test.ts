import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWebApp } from '../../src/web/app.js';
import { DIGEST_SCHEMA_VERSION, digestKey } from '../../src/digests/digest-record.js';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import { translator } from '../../src/i18n/index.js';
import {
	Browser,
	createAccount,
	logIn,
	MANAGE_GUILD,
	PUBLIC_URL,
	startWebHarness,
	type WebHarness,
} from './web-harness.js';

const ALICE = '310000000000000201'; // member with the server-stats role
const BOB = '310000000000000202'; // member without it
const ADMIN = '310000000000000203'; // Manage Server through a role, not the stats role
const STRANGER = '310000000000000204'; // not a member of the server
const en = translator('en-US');
const SETTER = '310000000000000205'; // Manage Server in both servers: one with a key, one the bot has just joined
const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy'];

let h: WebHarness;
let guildId: string;
let otherGuildId: string;
let roleId: string;
let managersRole: string;
let aliceKey: string;
let serverKey: string;

before(async () => {
	h = await startWebHarness();
	[guildId = '', otherGuildId = ''] = h.sandbox.guildIds;
	h.sandbox.setGuildName(guildId, 'Growth <script>alert("guild")</script>');
	roleId = h.sandbox.addRole(guildId, { name: 'Stats Readers', permissions: 0n }).id;
	h.sandbox.setMember(guildId, ALICE, { roles: [roleId] });
	h.sandbox.setMember(guildId, BOB, { roles: [] });
	managersRole = h.sandbox.addRole(guildId, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
	h.sandbox.setMember(guildId, ADMIN, { roles: [managersRole] });
	h.sandbox.setMember(otherGuildId, ALICE, { roles: [] });
	h.renames.set('Alice_Ads', '<script>alert(1)</script>Alice');
	aliceKey = createAccount(h, 'Alice_Ads');
	serverKey = createAccount(h, 'Server_Ads');
	await h.services.ctx.links.linkUser(ALICE, aliceKey);
	await h.services.ctx.links.linkServer(guildId, serverKey, ADMIN);
	await h.services.ctx.settings.update(guildId, { serverStatsRoleId: roleId });
});
after(() => h.close());

async function loggedIn(userId: string, locale = 'en-US'): Promise<Browser> {
	const browser = new Browser(h.app);
	const callback = await logIn(h, browser, userId, { locale });
	assert.equal(callback.status, 302);
	return browser;
}

function assertNoKey(text: string) {
	for (const key of [aliceKey, serverKey]) {
		assert.ok(!text.includes(key), 'a key in clear');
		assert.ok(!text.includes(key.slice(-8)), 'a part of a key');
	}
}

describe('the dashboard without a session', () => {
	it('sends a page that needs a session to the login, keeping its path', async () => {
		const browser = new Browser(h.app);
		const me = await browser.request('/me?days=7');
		assert.equal(me.status, 302);
		assert.equal(me.headers.get('location'), `/login?next=${encodeURIComponent('/me?days=7')}`);
		const server = await browser.request(`/servers/${guildId}`);
		assert.equal(server.headers.get('location'), `/login?next=${encodeURIComponent(`/servers/${guildId}`)}`);
	});

	it('answers the JSON and CSV routes with 401 JSON', async () => {
		const browser = new Browser(h.app);
		for (const path of ['/api/me/stats', `/api/servers/${guildId}/stats`, '/me/export.csv']) {
			const response = await browser.request(path);
			assert.equal(response.status, 401, path);
			const body = (await response.json()) as { error: { code: string } };
			assert.equal(body.error.code, 'unauthorized');
		}
	});

	it('puts the security headers on every response, a 404 and a static file included', async () => {
		const browser = new Browser(h.app);
		for (const path of ['/', '/healthz', '/nothing-here', '/static/chart.umd.min.js', '/login']) {
			const response = await browser.request(path);
			for (const header of SECURITY_HEADERS) assert.ok(response.headers.get(header), `${header} on ${path}`);
			const csp = response.headers.get('content-security-policy')!;
			assert.match(csp, /script-src 'self'(;|$)/u);
			assert.match(csp, /frame-ancestors 'none'/u);
			assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
			assert.equal(response.headers.get('referrer-policy'), 'same-origin');
		}
	});

	it('serves the installed chart.js and answers /healthz', async () => {
		const browser = new Browser(h.app);
		const chart = await browser.request('/static/chart.umd.min.js');
		assert.equal(chart.status, 200);
		assert.match(chart.headers.get('content-type')!, /javascript/u);
		assert.match(await chart.text(), /Chart\.js v4\./u);
		const health = await browser.request('/healthz');
		assert.equal(health.status, 200);
	});

	it('shows a logged-out start page with a login link, in the language asked for', async () => {
		const page = await new Browser(h.app).request('/?lang=de');
		const body = await page.text();
		assert.match(body, /<html lang="de">/u);
		assert.match(body, /href="\/login">Mit Discord anmelden</u);
	});
});

describe('login', () => {
	it('redirects to the authorization page with a fresh state bound to an HttpOnly cookie', async () => {
		const browser = new Browser(h.app);
		const response = await browser.request('/login');
		assert.equal(response.status, 302);
		const target = new URL(response.headers.get('location')!);
		assert.equal(`${target.origin}${target.pathname}`, h.sandbox.oauthAuthorizeUrl);
		assert.equal(target.searchParams.get('client_id'), h.sandbox.applicationId);
		assert.equal(target.searchParams.get('redirect_uri'), `${PUBLIC_URL}/auth/callback`);
		assert.equal(target.searchParams.get('response_type'), 'code');
		assert.equal(target.searchParams.get('scope'), 'identify guilds');
		const state = target.searchParams.get('state')!;
		assert.ok(Buffer.from(state, 'base64url').length >= 16, 'at least 128 random bits');
		const cookie = response.headers.getSetCookie().find((line) => line.includes(state))!;
		assert.match(cookie, /HttpOnly/iu);
		assert.match(cookie, /SameSite=Lax/iu);
		assert.match(cookie, /Max-Age=600/iu);
		assert.doesNotMatch(cookie, /Secure/iu, 'plain http cannot set Secure');
		const again = new URL((await browser.request('/login')).headers.get('location')!).searchParams.get('state');
		assert.notEqual(again, state);
	});

	it('creates a session and goes to next; the session cookie is HttpOnly, Lax, 7 days', async () => {
		const browser = new Browser(h.app);
		const callback = await logIn(h, browser, ALICE, { next: '/me?days=7' });
		assert.equal(callback.status, 302);
		assert.equal(callback.headers.get('location'), '/me?days=7');
		const cookie = callback.headers.getSetCookie().find((line) => line.startsWith('adstats_session='))!;
		assert.match(cookie, /HttpOnly/iu);
		assert.match(cookie, /SameSite=Lax/iu);
		assert.match(cookie, /Path=\//u);
		assert.match(cookie, /Max-Age=604800/u);
		const me = await browser.request('/me?days=7');
		assert.equal(me.status, 200);
	});

	it("writes the Discord language the login reports into the member's digest, as a command would", async () => {
		const digests = digestStoreOf(h.deps);
		await digests.update(ALICE, () => ({
			v: DIGEST_SCHEMA_VERSION,
			userId: ALICE,
			enabled: true,
			weekday: 'mon',
			hour: 9,
			timezone: 'UTC',
			locale: 'en-US',
			enabledAt: 0,
			lastSentWeek: null,
			lastSentAt: null,
			stopped: null,
		}));
		assert.equal((await logIn(h, new Browser(h.app), ALICE, { locale: 'pt-BR' })).status, 302);
		assert.equal((await digests.get(ALICE))?.locale, 'pt-BR');
		await h.deps.stores.watch.delete(digestKey(ALICE));
	});

	for (const next of ['//evil.example', '//evil.example/me', 'https://evil.example', '/\\evil.example']) {
		it(`ignores next=${next}`, async () => {
			const callback = await logIn(h, new Browser(h.app), ALICE, { next });
			assert.equal(callback.headers.get('location'), '/');
		});
	}

	async function callbackWith(browser: Browser, query: string) {
		const response = await browser.request(`/auth/callback?${query}`);
		assert.equal(response.status, 400);
		assert.ok(!response.headers.getSetCookie().some((line) => line.startsWith('adstats_session=')), 'no session');
		assert.match(await response.text(), /href="\/login"/u, 'a try-again link');
		return response;
	}

	async function authorizedCallback(browser: Browser): Promise<URL> {
		const login = await browser.request('/login');
		h.sandbox.setOAuthUser(ALICE);
		const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
		return new URL(authorize.headers.get('location')!);
	}

	it('refuses a callback without state, or with one this browser was not given', async () => {
		const browser = new Browser(h.app);
		const back = await authorizedCallback(browser);
		const code = back.searchParams.get('code')!;
		await callbackWith(browser, `code=${code}`);
		const other = new Browser(h.app);
		await other.request('/login');
		await callbackWith(other, back.search.slice(1));
		await callbackWith(new Browser(h.app), back.search.slice(1));
	});

	it('refuses a forged state even when the cookie says the same', async () => {
		const browser = new Browser(h.app);
		const back = await authorizedCallback(browser);
		browser.cookies.set('adstats_login', 'forged-state-value-forged-state-value-00000');
		await callbackWith(
			browser,
			`code=${back.searchParams.get('code')}&state=forged-state-value-forged-state-value-00000`,
		);
	});

	it('refuses a state used once already', async () => {
		const browser = new Browser(h.app);
		const back = await authorizedCallback(browser);
		const cookie = browser.cookies.get('adstats_login')!;
		const first = await browser.request(back.pathname + back.search);
		assert.equal(first.status, 302);
		browser.cookies.set('adstats_login', cookie);
		await callbackWith(browser, back.search.slice(1));
	});

	it('refuses a state older than 10 minutes', async () => {
		const browser = new Browser(h.app);
		const back = await authorizedCallback(browser);
		h.advance(10 * 60_000 + 1000);
		try {
			await callbackWith(browser, back.search.slice(1));
		} finally {
			h.advance(-(10 * 60_000 + 1000));
		}
	});

	it('answers a denied authorization with the 400 page', async () => {
		const browser = new Browser(h.app);
		const login = await browser.request('/login');
		h.sandbox.setOAuthUser(null);
		const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
		const back = new URL(authorize.headers.get('location')!);
		assert.equal(back.searchParams.get('error'), 'access_denied');
		await callbackWith(browser, back.search.slice(1));
	});

	it('logs out only with a POST from this site; the session is gone after it', async () => {
		const browser = await loggedIn(ALICE);
		const session = browser.cookies.get('adstats_session')!;
		assert.equal((await browser.post('/logout', {}, null)).status, 403);
		assert.equal((await browser.post('/logout', {}, 'https://evil.example')).status, 403);
		assert.equal((await browser.request('/me')).status, 200, 'still logged in after the refused POSTs');
		const out = await browser.post('/logout');
		assert.equal(out.status, 303);
		assert.equal(out.headers.get('location'), '/');
		const replay = new Browser(h.app);
		replay.cookies.set('adstats_session', session);
		assert.equal((await replay.request('/me')).status, 302, 'the old id opens nothing');
	});
});

describe('pages and access', () => {
	it('lists only the servers the member may open', async () => {
		const alice = await (await loggedIn(ALICE)).request('/');
		const aliceBody = await alice.text();
		assert.match(aliceBody, new RegExp(`href="/servers/${guildId}"`, 'u'));
		assert.doesNotMatch(aliceBody, new RegExp(`/servers/${otherGuildId}`, 'u'), 'no key there');
		assert.match(aliceBody, /href="\/me"/u);
		const bob = await (await loggedIn(BOB)).request('/');
		assert.doesNotMatch(await bob.text(), new RegExp(`/servers/${guildId}`, 'u'), 'the rules refuse Bob');
	});

	it('offers "Set up" for a server the member manages where the bot has no key yet, to its manage page only', async () => {
		const owners = h.sandbox.addRole(otherGuildId, { name: 'Owners', permissions: BigInt(MANAGE_GUILD) }).id;
		h.sandbox.setMember(otherGuildId, SETTER, { roles: [owners] });
		h.sandbox.setMember(guildId, SETTER, { roles: [managersRole] });
		const body = await (await (await loggedIn(SETTER)).request('/')).text();
		const count = (text: string) => body.split(text).length - 1;
		assert.equal(count(`href="/servers/${guildId}"`), 1, 'the server with a key: its one link');
		assert.equal(count(`href="/servers/${otherGuildId}"`), 0, 'no server page before a key');
		assert.equal(count(`href="/servers/${otherGuildId}/manage"`), 1, 'the keyless one: its manage page');
		assert.equal(count(`/servers/${guildId}/manage`), 0, 'a server with a key needs no setting up');
		assert.ok(body.includes(en('web.setUpTitle')));
		assert.ok(body.includes(en('web.setUp', { server: h.sandbox.guilds.find((g) => g.id === otherGuildId)!.name })));
		const alice = await (await (await loggedIn(ALICE)).request('/')).text();
		assert.ok(!alice.includes(en('web.setUpTitle')), 'a member who manages no keyless server sees no such list');
	});

	it('shows the member their own account, escaped, with chart data, table and CSV link', async () => {
		const browser = await loggedIn(ALICE);
		const page = await browser.request('/me?days=7&metric=sends');
		assert.equal(page.status, 200);
		const body = await page.text();
		assert.match(body, /<html lang="en-US">/u);
		assert.ok(!body.includes('<script>alert'), 'the account name is escaped');
		assert.ok(body.includes('&lt;script&gt;alert(1)&lt;/script&gt;Alice'));
		assert.match(body, /<script type="application\/json" id="chart-data">/u);
		assert.match(body, /<script src="\/static\/chart\.umd\.min\.[0-9a-f]{12}\.js"><\/script>/u);
		assert.doesNotMatch(body, /<script>(?!<)/u, 'no inline script');
		assert.equal((body.match(/<tr data-date=/gu) ?? []).length, 7);
		assert.match(body, /href="\/me\/export.csv\?days=7"/u);
		assertNoKey(body);
	});

	it('gives the JSON view of docs/web-dashboard.md, with no key in it', async () => {
		const browser = await loggedIn(ALICE);
		const response = await browser.request('/api/me/stats?days=14&metric=joins');
		assert.equal(response.status, 200);
		const text = await response.text();
		assertNoKey(text);
		const view = JSON.parse(text) as Record<string, unknown> & { series: { date: string }[] };
		assert.deepEqual(Object.keys(view).sort(), [
			'account',
			'comparisons',
			'days',
			'from',
			'generated_at',
			'goals',
			'metric',
			'notes',
			'series',
			'stale',
			'to',
			'totals',
		]);
		assert.deepEqual(view.goals, [], 'no goals set on this account');
		assert.deepEqual(view.notes, [], 'no notes on this account: always there, empty');
		assert.equal(view.account, '<script>alert(1)</script>Alice');
		assert.equal(view.days, 14);
		assert.equal(view.metric, 'joins');
		assert.equal(view.series.length, 14);
		assert.deepEqual(Object.keys(view.series[0]!), ['date', 'sends', 'joins', 'failed_sends']);
		assert.equal(view.series.at(-1)!.date, new Date().toISOString().slice(0, 10));
		assert.ok(view.series[0]!.date < view.series[1]!.date, 'oldest first');
	});

	it('answers the CSV of /export for the asked days', async () => {
		const browser = await loggedIn(ALICE);
		const response = await browser.request('/me/export.csv?days=30');
		assert.equal(response.status, 200);
		assert.match(response.headers.get('content-type')!, /text\/csv/u);
		assert.match(
			response.headers.get('content-disposition')!,
			/^attachment; filename="adstats-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/u,
		);
		const lines = (await response.text()).split('\r\n');
		assert.equal(lines[0], 'date,sends,joins,failed_sends');
		assert.equal(lines.length, 32);
	});

	it('refuses days and metric outside the /stats choices with 400', async () => {
		const browser = await loggedIn(ALICE);
		for (const query of ['days=5', 'days=abc', 'metric=clicks', 'days=30.0']) {
			assert.equal((await browser.request(`/me?${query}`)).status, 400, query);
			assert.equal((await browser.request(`/api/me/stats?${query}`)).status, 400, query);
		}
	});

	it('shows the server page to a member with the role, names escaped, no key', async () => {
		const browser = await loggedIn(ALICE);
		const page = await browser.request(`/servers/${guildId}?days=90&metric=joins`);
		assert.equal(page.status, 200);
		const body = await page.text();
		assert.ok(!body.includes('<script>alert("guild")'), 'the server name is escaped');
		assert.ok(body.includes('Growth &lt;script&gt;alert(&quot;guild&quot;)&lt;/script&gt;'));
		assert.doesNotMatch(body, /<section class="public">/u, 'the public-link form is for Manage Server');
		assertNoKey(body);
		const json = await browser.request(`/api/servers/${guildId}/stats?days=90`);
		assert.equal(json.status, 200);
		assert.equal(((await json.json()) as { account: string }).account, 'Server_Ads');
	});

	it('refuses a member without the role with a 403 page naming it, and the JSON and CSV too', async () => {
		const browser = await loggedIn(BOB);
		const page = await browser.request(`/servers/${guildId}`);
		assert.equal(page.status, 403);
		const body = await page.text();
		assert.match(body, /Stats Readers/u);
		assert.doesNotMatch(body, /chart-data/u);
		const json = await browser.request(`/api/servers/${guildId}/stats`);
		assert.equal(json.status, 403);
		assert.match(((await json.json()) as { error: { message: string } }).error.message, /Stats Readers/u);
		assert.equal((await browser.request(`/servers/${guildId}/export.csv`)).status, 403);
	});

	it('refuses a member who lost the role at the next load after the 60 s cache', async () => {
		const carol = '310000000000000205';
		h.sandbox.setMember(guildId, carol, { roles: [roleId] });
		const browser = await loggedIn(carol);
		assert.equal((await browser.request(`/servers/${guildId}`)).status, 200);
		h.sandbox.setMemberRoles(guildId, carol, []);
		h.advance(61_000);
		assert.equal((await browser.request(`/servers/${guildId}`)).status, 403);
		h.sandbox.removeMember(guildId, carol);
		h.advance(61_000);
		assert.equal((await browser.request(`/servers/${guildId}`)).status, 404, 'left the server');
	});

	it('answers 404 for a server the bot is not in, one without a key, and one the member is not in', async () => {
		const without = h.sandbox.addGuildWithoutBot(ALICE, { name: 'No bot here', permissions: MANAGE_GUILD });
		const alice = await loggedIn(ALICE);
		assert.equal((await alice.request(`/servers/${without}`)).status, 404);
		assert.equal((await alice.request(`/api/servers/${without}/stats`)).status, 404);
		assert.equal((await alice.request(`/servers/${otherGuildId}`)).status, 404, 'no server key');
		const stranger = await loggedIn(STRANGER);
		assert.equal((await stranger.request(`/servers/${guildId}`)).status, 404);
		assert.equal((await alice.request('/servers/not-a-snowflake')).status, 404);
	});

	it("follows the member's Discord locale, and ?lang= over it", async () => {
		const browser = await loggedIn(ALICE, 'ja');
		const page = await (await browser.request('/me')).text();
		assert.match(page, /<html lang="ja">/u);
		assert.match(page, /自分のアカウント/u);
		const german = await (await browser.request('/me?lang=de')).text();
		assert.match(german, /<html lang="de">/u);
		assert.match(german, /Mein Konto/u);
		const unknown = await new Browser(h.app).request('/?lang=xx');
		assert.match(await unknown.text(), /<html lang="en-US">/u);
	});

	it('shows the how-to on /me when the member has no link', async () => {
		const browser = await loggedIn(BOB);
		const page = await browser.request('/me');
		assert.equal(page.status, 200);
		assert.match(await page.text(), /You have not linked an API key yet/u);
		const json = await browser.request('/api/me/stats');
		assert.equal(json.status, 404);
	});
});

describe('the public link', () => {
	it('is turned on and off by Manage Server only, with a POST from this site', async () => {
		const admin = await loggedIn(ADMIN);
		const before = await (await admin.request(`/servers/${guildId}`)).text();
		assert.match(before, /<section class="public">/u);
		assert.equal(
			(await admin.post(`/servers/${guildId}/public`, { enabled: 'on' }, 'https://evil.example')).status,
			403,
		);
		const alice = await loggedIn(ALICE);
		assert.equal((await alice.post(`/servers/${guildId}/public`, { enabled: 'on' })).status, 403, 'no Manage Server');
		assert.equal(
			(await alice.post(`/servers/${guildId}/public`, { enabled: 'maybe' })).status,
			403,
			'no Manage Server comes before a bad value',
		);
		assert.equal((await admin.post(`/servers/${guildId}/public`, { enabled: 'maybe' })).status, 400);
		const on = await admin.post(`/servers/${guildId}/public`, { enabled: 'on' });
		assert.equal(on.status, 303);
		const back = on.headers.get('location') ?? '';
		assert.equal(back, `/servers/${guildId}?done=public-on`, 'back to the server page with the outcome');
		assert.match(await (await admin.request(back)).text(), /class="outcome"[^>]*>[^<]*public/iu, 'the outcome line');
		const page = await (await admin.request(`/servers/${guildId}`)).text();
		const link = /id="public-link" href="([^"]+)"/u.exec(page)?.[1];
		assert.ok(link?.startsWith(`${PUBLIC_URL}/p/`), 'the page shows the public link');
		const token = link!.slice(`${PUBLIC_URL}/p/`.length);
		assert.ok(Buffer.from(token, 'base64url').length >= 16, 'at least 128 random bits');

		const visitor = new Browser(h.app);
		const visit = await visitor.request(`/p/${token}?days=30`);
		assert.equal(visit.status, 200);
		const body = await visit.text();
		assert.match(body, /<meta name="robots" content="noindex, nofollow" ?\/?>/u);
		assert.match(visit.headers.get('x-robots-tag') ?? '', /noindex/u);
		assert.match(body, /chart-data/u);
		assert.doesNotMatch(body, /export\.csv/u, 'no export');
		assert.doesNotMatch(body, /\/logout|Logged in as/u, 'no member data');
		assertNoKey(body);

		const off = await admin.post(`/servers/${guildId}/public`, { enabled: 'off' });
		assert.equal(off.status, 303);
		assert.equal((await visitor.request(`/p/${token}`)).status, 404, 'off at once');
		await admin.post(`/servers/${guildId}/public`, { enabled: 'on' });
		assert.equal((await visitor.request(`/p/${token}`)).status, 404, 'on again is a new token');
		await admin.post(`/servers/${guildId}/public`, { enabled: 'off' });
	});

	it('counts Manage Server from a role given after login, once the 60 s cache has passed', async () => {
		const dave = '310000000000000206';
		h.sandbox.setMember(guildId, dave, { roles: [roleId] });
		const browser = await loggedIn(dave);
		assert.doesNotMatch(await (await browser.request(`/servers/${guildId}`)).text(), /<section class="public">/u);
		h.sandbox.setMemberRoles(guildId, dave, [roleId, managersRole]);
		h.advance(61_000);
		assert.match(await (await browser.request(`/servers/${guildId}`)).text(), /<section class="public">/u);
	});

	it('follows the server language on the public page', async () => {
		await h.services.ctx.settings.update(guildId, { language: 'de' });
		const admin = await loggedIn(ADMIN);
		await admin.post(`/servers/${guildId}/public`, { enabled: 'on' });
		const page = await (await admin.request(`/servers/${guildId}`)).text();
		const link = /id="public-link" href="([^"]+)"/u.exec(page)![1]!;
		const visit = await new Browser(h.app).request(new URL(link).pathname);
		assert.match(await visit.text(), /<html lang="de">/u);
		await admin.post(`/servers/${guildId}/public`, { enabled: 'off' });
		await h.services.ctx.settings.update(guildId, { language: 'auto' });
	});

	it('posts an audit line for each change when the server has an audit channel', async () => {
		const auditChannel = h.sandbox.guilds[0]!.channelIds[1]!;
		await h.services.ctx.settings.update(guildId, { auditChannelId: auditChannel });
		try {
			const admin = await loggedIn(ADMIN);
			await admin.post(`/servers/${guildId}/public`, { enabled: 'on' });
			await admin.post(`/servers/${guildId}/public`, { enabled: 'off' });
			const lines = h.sandbox.channelMessages(auditChannel).map((message) => message.content);
			assert.equal(lines.length, 2);
			assert.match(
				lines[0]!,
				new RegExp(`^<@${ADMIN}> \\(dashboard\\) turned on the server's public statistics page`, 'u'),
			);
			assert.match(
				lines[1]!,
				new RegExp(`^<@${ADMIN}> \\(dashboard\\) turned off the server's public statistics page`, 'u'),
			);
			assert.ok(!lines.join('\n').includes('/p/'), 'the link itself stays out of the channel');
		} finally {
			await h.services.ctx.settings.update(guildId, { auditChannelId: null });
		}
	});

	it('answers an unknown token with 404', async () => {
		const visitor = new Browser(h.app);
		assert.equal((await visitor.request('/p/AAAAAAAAAAAAAAAAAAAAAA')).status, 404);
		assert.equal((await visitor.request('/p/%3Cscript%3E')).status, 404);
	});
});

describe('a failure inside', () => {
	it('answers a 500 page (JSON under /api) with the security headers, naming nothing of the failure', async () => {
		const broken = createWebApp({
			...h.deps,
			botGuilds: {
				guild: () => Promise.reject(new Error('discord exploded with token abc.def')),
				member: () => Promise.reject(new Error('no')),
				channels: () => Promise.reject(new Error('no')),
			},
		});
		const browser = new Browser(broken as unknown as typeof h.app);
		const callback = await logIn(h, browser, ALICE);
		assert.equal(callback.status, 302);
		const page = await browser.request(`/servers/${guildId}`);
		assert.equal(page.status, 500);
		for (const header of SECURITY_HEADERS) assert.ok(page.headers.get(header), header);
		assert.doesNotMatch(await page.text(), /exploded|abc\.def/u);
		const json = await browser.request(`/api/servers/${guildId}/stats`);
		assert.equal(json.status, 500);
		assert.equal(((await json.json()) as { error: { code: string } }).error.code, 'internal');
	});
});

describe('logs', () => {
	it('hold no key and no session id', () => {
		const text = h.logs.join('\n');
		assertNoKey(text);
		assert.doesNotMatch(text, /adstats_session=/u);
	});
});
