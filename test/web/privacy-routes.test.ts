// The dashboard's privacy routes against the real app, store and Discord stand-in: the public /privacy page in
// eight languages (or a redirect to the host's policy), the member's data as a download, and deletion behind
// Origin, session and an explicit confirmation, then logged out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { LOCALES, translator } from '../../src/i18n/index.js';
import { createWebApp } from '../../src/web/app.js';
import { escapeHtml } from '../../src/web/html.js';
import { Browser, createAccount, logIn, startWebHarness, type WebHarness } from './web-harness.js';

const MEMBER = '310000000000000301';
const en = translator('en-US');

let h: WebHarness;
let memberKey: string;

before(async () => {
	h = await startWebHarness();
	memberKey = createAccount(h, 'Privacy_Web');
	await h.services.ctx.links.linkUser(MEMBER, memberKey);
});
after(() => h.close());

async function loggedIn(): Promise<Browser> {
	const browser = new Browser(h.app);
	assert.equal((await logIn(h, browser, MEMBER)).status, 302);
	return browser;
}

describe('GET /privacy', () => {
	it('answers without a login in each of the eight languages, naming the contact when set', async () => {
		const app = createWebApp({
			...h.deps,
			config: { ...h.deps.config, privacyContact: 'privacy@example.org', serverDataDays: 47 },
		}) as unknown as Hono;
		for (const locale of LOCALES) {
			const t = translator(locale);
			const response = await new Browser(app).request(`/privacy?lang=${locale}`);
			assert.equal(response.status, 200, locale);
			const body = await response.text();
			assert.match(body, new RegExp(`<html lang="${locale}"`, 'u'));
			assert.ok(body.includes(`<h1>${t('web.privacy.title')}</h1>`), locale);
			assert.ok(body.includes('privacy@example.org'), `${locale}: the contact`);
			assert.ok(body.includes(`${h.deps.config.historyDays}`), `${locale}: how long the history is kept`);
			// SERVER_DATA_DAYS as configured: the words around it, as the page renders them.
			const howLong = t('web.privacy.howLong', { historyDays: h.deps.config.historyDays, serverDataDays: 47 });
			const at = howLong.indexOf('47');
			assert.ok(
				at > 0 && body.includes(howLong.slice(at - 6, at + 8)),
				`${locale}: how long a left server's data stays`,
			);
		}
		const withoutContact = await (await new Browser(h.app).request('/privacy')).text();
		// The text's apostrophe is escaped in the page: its first clause is enough to tell it.
		assert.ok(withoutContact.includes(en('web.privacy.noContact').split(';')[0]!));
	});

	it('redirects to PRIVACY_POLICY_URL when the host has a policy of their own', async () => {
		const app = createWebApp({
			...h.deps,
			config: { ...h.deps.config, privacyPolicyUrl: 'https://example.org/policy' },
		}) as unknown as Hono;
		const response = await new Browser(app).request('/privacy');
		assert.equal(response.status, 302);
		assert.equal(response.headers.get('location'), 'https://example.org/policy');
	});
});

describe("a member's own data", () => {
	it('GET /me/data.json is the export as an attachment, never the key; 401 without a session', async () => {
		assert.equal((await new Browser(h.app).request('/me/data.json')).status, 401);
		const browser = await loggedIn();
		const response = await browser.request('/me/data.json');
		assert.equal(response.status, 200);
		assert.match(
			response.headers.get('content-disposition') ?? '',
			/^attachment; filename="adstats-my-data-\d{4}-\d{2}-\d{2}\.json"$/u,
		);
		const text = await response.text();
		assert.ok(!text.includes(memberKey));
		const exported = JSON.parse(text) as { user_id: string; records: { kind: string }[] };
		assert.equal(exported.user_id, MEMBER);
		assert.deepEqual(exported.records.map((record) => record.kind).sort(), ['history', 'link', 'session']);
		const me = await (await browser.request('/me')).text();
		assert.match(me, /href="\/me\/data\.json"/u);
		assert.match(me, /action="\/me\/delete"/u);
	});

	it("/me lists what the bot holds about the member by kind, as /privacy show does, in the member's language", async () => {
		const browser = await loggedIn();
		for (const locale of ['en-US', 'ja'] as const) {
			const t = translator(locale);
			const me = await (await browser.request(`/me?lang=${locale}`)).text();
			const held = me.slice(me.indexOf('<section id="my-data"'));
			assert.ok(held.includes(t('privacy.heading').replaceAll('**', '')), `${locale}: the heading`);
			for (const kind of ['link', 'session', 'history'] as const) {
				assert.ok(held.includes(escapeHtml(t(`privacy.kinds.${kind}`))), `${locale}: ${kind}`);
			}
			assert.ok(!held.includes(escapeHtml(t('privacy.kinds.digest'))), `${locale}: no digest is held`);
		}
	});

	it('POST /me/delete without confirm=yes, from another origin or without a session deletes nothing', async () => {
		const browser = await loggedIn();
		const unconfirmed = await browser.post('/me/delete', {});
		assert.equal(unconfirmed.status, 400);
		assert.ok((await unconfirmed.text()).includes(en('web.privacy.confirmNeeded')));
		assert.equal((await browser.post('/me/delete', { confirm: 'no' })).status, 400);
		assert.equal((await browser.post('/me/delete', { confirm: 'yes' }, 'https://evil.example')).status, 403);
		assert.equal((await new Browser(h.app).post('/me/delete', { confirm: 'yes' })).status, 401);
		assert.ok(await h.services.ctx.links.getUserLink(MEMBER), 'the link is still there');
		assert.equal((await browser.request('/me/data.json')).status, 200, 'the session still works');
	});

	it('POST /me/delete with confirm=yes deletes everything, ends every session and logs out', async () => {
		const other = await loggedIn();
		const browser = await loggedIn();
		const deleted = await browser.post('/me/delete', { confirm: 'yes' });
		assert.equal(deleted.status, 303);
		assert.equal(deleted.headers.get('location'), '/');
		assert.equal(browser.cookies.size, 0, 'the session cookie is cleared');
		assert.equal(await h.services.ctx.links.getUserLink(MEMBER), null);
		assert.equal((await other.request('/me/data.json')).status, 401, "the member's other session ended too");
	});
});
