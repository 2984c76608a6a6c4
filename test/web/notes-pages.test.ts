// Notes on the dashboard: the manage page's Notes section and /me's add and remove through the /note actions, with
// Origin, session and Manage Server checked as on every POST; a note is data on every page (server page, public page,
// /me, manage page: `<script>` escaped), and the JSON view always has `notes` of the days it shows, never the other
// scope's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { noteStoreOf } from '../../src/notes/note-store.js';
import { link } from '../../src/stats/link-actions.js';
import {
	Browser,
	createAccount,
	logIn,
	MANAGE_GUILD,
	PUBLIC_URL,
	startWebHarness,
	type WebHarness,
} from './web-harness.js';

const ADMIN = '310000000000000701';
const MEMBER = '310000000000000702';
const SCRIPT = '<script>alert(1)</script>';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';

describe('notes on the dashboard', () => {
	let h: WebHarness;
	let guildId: string;
	let admin: Browser;
	let member: Browser;
	const today = () => utcDateOf(Date.now());
	const serverNotes = () => noteStoreOf(h.services.ctx).read({ scope: 'server', guildId });
	const memberNotes = () => noteStoreOf(h.services.ctx).read({ scope: 'me', userId: MEMBER });
	const notesPath = () => `/servers/${guildId}/notes`;

	async function loggedIn(userId: string): Promise<Browser> {
		const browser = new Browser(h.app);
		assert.equal((await logIn(h, browser, userId)).status, 302);
		return browser;
	}
	const page = async (browser: Browser, path: string) => {
		const response = await browser.request(path);
		assert.equal(response.status, 200, path);
		return response.text();
	};
	/** A page holds the note only as text: escaped, never as markup. */
	const assertEscaped = (body: string, where: string) => {
		assert.ok(body.includes(ESCAPED), `${where} shows the note's text`);
		assert.ok(!body.includes('<script>alert(1)'), `${where} never holds it as markup`);
	};

	before(async () => {
		h = await startWebHarness();
		guildId = h.sandbox.guildIds[0]!;
		const managers = h.sandbox.addRole(guildId, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
		h.sandbox.setMember(guildId, ADMIN, { roles: [managers] });
		h.sandbox.setMember(guildId, MEMBER, { roles: [] });
		await h.services.ctx.links.linkServer(guildId, createAccount(h, 'Notes_Server'), ADMIN);
		await link(h.services.ctx, MEMBER, createAccount(h, 'Notes_Member'));
		admin = await loggedIn(ADMIN);
		member = await loggedIn(MEMBER);
	});
	after(() => h.close());

	it("the manage page adds a server note with /note add's rules; Origin, session and Manage Server are checked", async () => {
		const date = addDays(today(), -3);
		assert.equal((await admin.post(notesPath(), { date, text: 'x' }, 'https://evil.example')).status, 403);
		assert.equal((await admin.post(notesPath(), { date, text: 'x' }, null)).status, 403, 'no Origin');
		assert.equal((await member.post(notesPath(), { date, text: 'x' })).status, 403, 'no Manage Server');
		assert.equal((await new Browser(h.app).post(notesPath(), { date, text: 'x' })).status, 401, 'no session');
		const bad = await admin.post(notesPath(), { date: '2026-02-30', text: 'x' });
		assert.equal(bad.status, 400);
		assert.match(await bad.text(), /2026-02-30 is not a day of the calendar\./u);
		assert.equal((await admin.post(notesPath(), { date, text: 'x'.repeat(61) })).status, 400);
		assert.deepEqual(await serverNotes(), [], 'nothing stored by a refusal');

		const added = await admin.post(notesPath(), { date, text: SCRIPT });
		assert.equal(added.status, 303);
		assert.equal(added.headers.get('location'), `/servers/${guildId}/manage?done=note-added#notes`);
		assert.deepEqual(
			(await serverNotes()).map((note) => [note.date, note.text]),
			[[date, SCRIPT]],
		);
		const manage = await page(admin, `/servers/${guildId}/manage?done=note-added`);
		assert.match(manage, /<section id="notes"/u);
		assert.match(manage, /Note added\./u);
		assert.match(
			manage,
			new RegExp(`<input id="note-date" name="date" type="date" min="2000-01-01" max="${today()}"`, 'u'),
		);
		assertEscaped(manage, 'the manage page');
	});

	it('the server page and its JSON show the note of the days shown; /me and its JSON do not', async () => {
		const server = await page(admin, `/servers/${guildId}?days=7`);
		assertEscaped(server, 'the server page');
		assert.match(server, /chartjs-plugin-annotation\.min\.[0-9a-f]{12}\.js/u, 'the plugin is served beside chart.js');
		assert.ok(server.includes('\\u003cscript\\u003e'), "the chart's config carries it, escaped for the script block");
		const json = (await (await admin.request(`/api/servers/${guildId}/stats?days=7`)).json()) as {
			notes: { date: string; text: string }[];
		};
		assert.deepEqual(json.notes, [{ date: addDays(today(), -3), text: SCRIPT }]);
		const shorter = (await (await admin.request(`/api/servers/${guildId}/stats?days=7`)).json()) as {
			notes: unknown[];
		};
		assert.equal(shorter.notes.length, 1);
		await admin.post(notesPath(), { date: addDays(today(), -20), text: 'three weeks ago' });
		const week = (await (await admin.request(`/api/servers/${guildId}/stats?days=7`)).json()) as { notes: unknown[] };
		assert.equal(week.notes.length, 1, 'a note before the days shown is not in the JSON');
		const month = (await (await admin.request(`/api/servers/${guildId}/stats?days=30`)).json()) as { notes: unknown[] };
		assert.equal(month.notes.length, 2);

		// A chosen range: the notes of its days.
		const from = addDays(today(), -25);
		const to = addDays(today(), -10);
		const ranged = (await (await admin.request(`/api/servers/${guildId}/stats?from=${from}&to=${to}`)).json()) as {
			notes: { text: string }[];
		};
		assert.deepEqual(
			ranged.notes.map((note) => note.text),
			['three weeks ago'],
		);

		const mine = (await (await member.request('/api/me/stats')).json()) as { notes: unknown[] };
		assert.deepEqual(mine.notes, [], "the member's view has notes, empty: never the server's");
		assert.ok(!(await page(member, '/me')).includes(ESCAPED));
	});

	it('the public page escapes the note as well', async () => {
		const on = await admin.post(`/servers/${guildId}/public`, { enabled: 'on' });
		assert.equal(on.status, 303);
		const body = await page(admin, `/servers/${guildId}`);
		const link = /id="public-link" href="([^"]+)"/u.exec(body)?.[1];
		assert.ok(link?.startsWith(`${PUBLIC_URL}/p/`));
		assertEscaped(await page(new Browser(h.app), `${link!.slice(PUBLIC_URL.length)}?days=7`), 'the public page');
		await admin.post(`/servers/${guildId}/public`, { enabled: 'off' });
	});

	it("/me adds and removes the member's own notes; they never reach the server's page", async () => {
		const date = addDays(today(), -1);
		assert.equal((await member.post('/me/notes', { date, text: SCRIPT }, 'https://evil.example')).status, 403);
		assert.equal((await member.post('/me/notes', { date: addDays(today(), 1), text: 'x' })).status, 400);
		const added = await member.post('/me/notes', { date, text: `${SCRIPT} mine` });
		assert.equal(added.status, 303);
		assert.equal(added.headers.get('location'), '/me?done=note-added');
		const me = await page(member, '/me?done=note-added');
		assert.match(me, /<section id="notes"/u);
		assert.match(me, /Note added\./u);
		assertEscaped(me, '/me');
		const json = (await (await member.request('/api/me/stats')).json()) as { notes: unknown[] };
		assert.deepEqual(json.notes, [{ date, text: `${SCRIPT} mine` }]);
		const server = (await (await admin.request(`/api/servers/${guildId}/stats?days=7`)).json()) as {
			notes: { text: string }[];
		};
		assert.ok(
			server.notes.every((note) => !note.text.endsWith('mine')),
			"the member's note is not the server's",
		);

		const [note] = await memberNotes();
		// Another member's note id removes nothing of theirs.
		const serverNote = (await serverNotes())[0]!;
		const wrong = await member.post('/me/notes', { action: 'remove', note: serverNote.id });
		assert.equal(wrong.headers.get('location'), '/me?done=nothing-removed');
		assert.equal((await serverNotes()).length, 2);
		const removed = await member.post('/me/notes', { action: 'remove', note: note!.id });
		assert.equal(removed.headers.get('location'), '/me?done=note-removed');
		assert.deepEqual(await memberNotes(), []);
	});

	it('the manage page removes a server note', async () => {
		const [note] = await serverNotes();
		const removed = await admin.post(notesPath(), { action: 'remove', note: note!.id });
		assert.equal(removed.headers.get('location'), `/servers/${guildId}/manage?done=note-removed#notes`);
		const again = await admin.post(notesPath(), { action: 'remove', note: note!.id });
		assert.equal(again.headers.get('location'), `/servers/${guildId}/manage?done=nothing-removed#notes`);
		assert.equal((await serverNotes()).length, 1);
	});
});
