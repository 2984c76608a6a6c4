// The manage page and its forms (docs: "Managing a server from the dashboard") through the app with the Discord
// stand-in, the bundled stats service and a real SQLite store: every POST's refusals, the slash commands' words
// when an action refuses, what a success stores and audits, and that a typed key goes nowhere but the sealed store.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { translator } from '../../src/i18n/index.js';
import { userGuildManages } from '../../src/web/auth/discord-oauth.js';
import { createReportStore } from '../../src/reports/report-store.js';
import { publicToken } from '../../src/settings/public-page.js';
import { watchStoreOf } from '../../src/watch/watch-context.js';
import { boardStoreOf } from '../../src/boards/board-store.js';
import { goalStoreOf } from '../../src/goals/goal-store.js';
import {
	Browser,
	createAccount,
	logIn,
	MANAGE_GUILD,
	PUBLIC_URL,
	startWebHarness,
	type WebHarness,
} from './web-harness.js';

const ADMIN = '310000000000000401'; // Manage Server through a role
const MEMBER = '310000000000000402'; // in the server, no Manage Server
const STRANGER = '310000000000000403'; // not in the server
const DEMOTED = '310000000000000404'; // given Manage Server after login, taken away while the page is open
const LISTED_ADMIN = '310000000000000405'; // Manage Server through a role at login, the role taken away later

let h: WebHarness;
let guildId: string;
let managersRole: string;
let readersRole: string;
let textChannels: string[];
let voiceChannel: string;
let categoryChannel: string;
let auditChannel: string;
let serverKey: string;
let otherKey: string;
let memberKey: string;
/** Every key typed into a form in this file: none may show up anywhere but sealed in the store. */
const typedKeys: string[] = [];
/** Every page and redirect the dashboard answered, to search for them. */
const answered: string[] = [];

before(async () => {
	h = await startWebHarness();
	guildId = h.sandbox.guildIds[0]!;
	const fixture = h.sandbox.guilds[0]!;
	textChannels = fixture.channelIds;
	voiceChannel = fixture.voiceChannelIds[0]!;
	categoryChannel = fixture.categoryIds[1]!;
	auditChannel = textChannels[1]!;
	managersRole = h.sandbox.addRole(guildId, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
	readersRole = h.sandbox.addRole(guildId, { name: 'Stats Readers', permissions: 0n }).id;
	h.sandbox.setMember(guildId, ADMIN, { roles: [managersRole] });
	h.sandbox.setMember(guildId, MEMBER, { roles: [] });
	h.sandbox.setMember(guildId, DEMOTED, { roles: [] });
	h.sandbox.setMember(guildId, LISTED_ADMIN, { roles: [managersRole] });
	serverKey = createAccount(h, 'Server_Ads');
	otherKey = createAccount(h, 'Other_Ads');
	memberKey = createAccount(h, 'Member_Ads');
	typedKeys.push(otherKey, memberKey, serverKey);
	await h.services.ctx.links.linkServer(guildId, serverKey, ADMIN);
});
after(() => h.close());

beforeEach(async () => {
	await h.services.ctx.settings.reset(guildId);
	await h.services.ctx.settings.update(guildId, { auditChannelId: auditChannel });
});

async function loggedIn(userId: string, locale = 'en-US'): Promise<Browser> {
	const browser = new RecordingBrowser(h.app);
	assert.equal((await logIn(h, browser, userId, { locale })).status, 302);
	return browser;
}

/** A browser that keeps every body and redirect it gets, for the search for keys at the end. */
class RecordingBrowser extends Browser {
	override async request(path: string, init: RequestInit = {}): Promise<Response> {
		const response = await super.request(path, init);
		const copy = response.clone();
		answered.push(`${response.headers.get('location') ?? ''}\n${await copy.text()}`);
		return response;
	}
}

const managePath = () => `/servers/${guildId}/manage`;
const auditLines = () => h.sandbox.channelMessages(auditChannel).map((message) => message.content);
const reports = () => createReportStore(h.services.ctx.stores).listServer(guildId);
const watch = () => watchStoreOf(h.services.ctx);
const en = translator('en-US');

/** The words of a catalogue text as a page shows them: markup and mentions aside, the plain sentence parts. */
function assertWords(body: string, text: string) {
	for (const part of text.split(/`[^`]*`|\*\*|<[^>]+>|\{\{[^}]+\}\}/u)) {
		const words = part.trim();
		if (words.length > 3) assert.ok(body.includes(escapeText(words)), `the page says "${words}"`);
	}
}

function escapeText(text: string): string {
	return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;').replace(/'/gu, '&#39;');
}

/** What a POST to each form sends when all is well; none of them may pass a refused check. */
function validForms(): [string, Record<string, string>][] {
	return [
		[`/servers/${guildId}/key`, { key: otherKey }],
		[`/servers/${guildId}/settings`, { 'default-days': '90' }],
		[`/servers/${guildId}/reports`, { channel: textChannels[2]!, every: 'daily', hour: '9', timezone: 'UTC' }],
		[`/servers/${guildId}/stat-channels`, { channel: voiceChannel, figure: 'sends-today' }],
		[`/servers/${guildId}/alerts`, { kind: 'no-sends', channel: textChannels[3]!, threshold: '24' }],
		[`/servers/${guildId}/public`, { enabled: 'on' }],
		[`/servers/${guildId}/goals`, { metric: 'sends', target: '20000', period: 'month' }],
	];
}

/** What the forms above would have stored. */
async function storedState() {
	return {
		link: (await h.services.ctx.links.getServerLink(guildId))?.accountName ?? null,
		settings: await h.services.ctx.settings.get(guildId),
		reports: (await reports()).length,
		statChannels: (await watch().statChannels.listServer(guildId)).length,
		alerts: (await watch().alerts.listServer(guildId)).length,
		publicToken: await publicToken(h.services.ctx, guildId),
		goals: await goalStoreOf(h.services.ctx).read({ scope: 'server', guildId }),
	};
}

describe('the manage page', () => {
	it('shows every section to a member with Manage Server, with a password field for the key', async () => {
		const admin = await loggedIn(ADMIN);
		const page = await admin.request(managePath());
		assert.equal(page.status, 200);
		const body = await page.text();
		for (const id of ['key', 'settings', 'reports', 'stat-channels', 'alerts', 'goals', 'public']) {
			assert.match(body, new RegExp(`<section id="${id}"`, 'u'), id);
		}
		assert.match(body, /<input\s+id="key-input"\s+type="password"\s+name="key"\s+autocomplete="off"/u);
		assert.match(body, /Server_Ads/u, "the linked account's name");
		assert.doesNotMatch(body, /<script(?! src)/u, 'no inline script');
		assert.match(body, /<section id="boards" class="manage">/u, 'the Boards section');
	});

	it('offers roles without @everyone, and channels of the right kinds only', async () => {
		const body = await (await (await loggedIn(ADMIN)).request(managePath())).text();
		const options = (selectId: string) => {
			const select = new RegExp(`<select id="${selectId}"[^>]*>([\\s\\S]*?)</select>`, 'u').exec(body)?.[1] ?? '';
			return [...select.matchAll(/<option value="([^"]*)"/gu)].map((match) => match[1]);
		};
		const roles = options('set-server-stats-role');
		assert.ok(roles.includes(readersRole) && roles.includes(''), 'the roles, and "everyone" to unset');
		assert.ok(!roles.includes(guildId), 'never @everyone');
		const postable = new Set(['', ...textChannels]);
		for (const id of ['report-channel', 'alert-channel', 'set-share-channel', 'set-audit-channel']) {
			const offered = options(id);
			assert.ok(offered.length > 1, id);
			assert.ok(
				offered.every((value) => postable.has(value!)),
				`${id}: text channels only`,
			);
		}
		const statChannels = options('stat-channel');
		assert.ok(statChannels.includes(voiceChannel) && statChannels.includes(categoryChannel));
		assert.ok(!statChannels.some((value) => textChannels.includes(value!)), 'no text channel for a stat channel');
	});

	it("starts each add form's channel choice empty and required; the settings' empty choices still unset", async () => {
		const body = await (await (await loggedIn(ADMIN)).request(managePath())).text();
		for (const id of ['report-channel', 'stat-channel', 'alert-channel']) {
			const select = new RegExp(`<select id="${id}"([^>]*)>([\\s\\S]*?)</select>`, 'u').exec(body);
			assert.ok(select, id);
			assert.match(select[1]!, /\brequired\b/u, `${id} is required`);
			const first = /<option value="([^"]*)"( selected)?>([^<]*)<\/option>/u.exec(select[2]!);
			assert.deepEqual([first?.[1], first?.[3]], ['', en('web.manage.chooseChannel')], `${id} starts empty`);
			assert.doesNotMatch(select[2]!, /<option value="\d+" selected>/u, `${id}: no channel chosen before the admin`);
		}
		for (const id of ['set-share-channel', 'set-audit-channel', 'set-server-stats-role', 'set-share-role']) {
			const select = new RegExp(`<select id="${id}"([^>]*)>\\s*<option value=""`, 'u').exec(body);
			assert.ok(select, `${id} keeps its empty choice first`);
			assert.doesNotMatch(select[1]!, /required/u, `${id} may be unset`);
		}
	});

	it('says in its own words, in every language, that a list is empty and the add form is below', async () => {
		const admin = await loggedIn(ADMIN);
		for (const locale of ['en-US', 'de', 'ja', 'fr', 'es-ES', 'pt-BR', 'ru', 'tr'] as const) {
			const t = translator(locale);
			const body = await (await admin.request(`${managePath()}?lang=${locale}`)).text();
			for (const key of [
				'web.manage.reportsEmpty',
				'web.manage.statChannelsEmpty',
				'web.manage.alertsEmpty',
			] as const) {
				assert.ok(body.includes(escapeText(t(key))), `${locale} ${key}`);
			}
			assert.doesNotMatch(
				body,
				/<code>\/(report|statchannel|alert) add<\/code>/u,
				`${locale}: no slash command to type`,
			);
		}
	});

	it("labels the settings in the page's words: no option syntax of the slash command left in English", async () => {
		const admin = await loggedIn(ADMIN);
		for (const locale of ['en-US', 'de', 'ja']) {
			const body = await (await admin.request(`${managePath()}?lang=${locale}`)).text();
			const labels = [...body.matchAll(/<label for="set-[^"]+">([^<]*)<\/label>/gu)].map((match) => match[1]!);
			assert.equal(labels.length, 7, `${locale}: a label per setting`);
			for (const label of labels) assert.doesNotMatch(label, /\bmetric\b|scope:server/u, `${locale}: ${label}`);
		}
	});

	it('refuses a member without Manage Server with a 403 page naming it, and answers 404 as the server page', async () => {
		const member = await loggedIn(MEMBER);
		const refused = await member.request(managePath());
		assert.equal(refused.status, 403);
		assert.match(await refused.text(), /Manage Server/u);
		assert.equal((await (await loggedIn(STRANGER)).request(managePath())).status, 404, 'not a member');
		const admin = await loggedIn(ADMIN);
		assert.equal((await admin.request('/servers/not-a-server/manage')).status, 404);
		const withoutBot = h.sandbox.addGuildWithoutBot(ADMIN, { permissions: MANAGE_GUILD });
		assert.equal((await admin.request(`/servers/${withoutBot}/manage`)).status, 404, 'the bot is not there');
		const anonymous = await new Browser(h.app).request(managePath());
		assert.equal(anonymous.status, 302);
		assert.equal(anonymous.headers.get('location'), `/login?next=${encodeURIComponent(managePath())}`);
	});

	it("reads in the member's language, and ?lang= keeps through the forms", async () => {
		const admin = await loggedIn(ADMIN, 'ja');
		const body = await (await admin.request(managePath())).text();
		assert.match(body, /<html lang="ja">/u);
		assert.ok(body.includes(translator('ja')('web.manage.keyTitle')));
		const german = await (await admin.request(`${managePath()}?lang=de`)).text();
		assert.match(german, new RegExp(`action="/servers/${guildId}/alerts\\?lang=de"`, 'u'));
		const sent = await admin.post(`/servers/${guildId}/settings?lang=de`, { 'default-days': '14' });
		assert.equal(sent.status, 303);
		assert.equal(sent.headers.get('location'), `${managePath()}?done=settings-saved&lang=de#settings`);
	});

	it('shows a link to itself on the server page for Manage Server only', async () => {
		const admin = await (await (await loggedIn(ADMIN)).request(`/servers/${guildId}`)).text();
		assert.match(admin, new RegExp(`href="/servers/${guildId}/manage"`, 'u'));
		await h.services.ctx.settings.update(guildId, { serverStatsRoleId: null });
		const member = await (await (await loggedIn(MEMBER)).request(`/servers/${guildId}`)).text();
		assert.doesNotMatch(member, /\/manage"/u);
	});
});

describe('the start page', () => {
	it('links each server whose page the member may open, once; a server without a key is managed by its address', async () => {
		const unkeyed = h.sandbox.guildIds[1]!;
		const managersThere = h.sandbox.addRole(unkeyed, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
		h.sandbox.setMember(unkeyed, ADMIN, { roles: [managersThere] });
		h.sandbox.setMember(unkeyed, MEMBER, { roles: [] });
		const admin = await loggedIn(ADMIN);
		const home = await (await admin.request('/?lang=de')).text();
		assert.equal(home.match(new RegExp(`/servers/${guildId}`, 'gu'))?.length, 1, 'one link, to the server page');
		assert.match(home, new RegExp(`<a href="/servers/${guildId}\\?lang=de">`, 'u'));
		// A server without a key has no server page: only "Set up", to its manage page (docs/web-dashboard.md).
		assert.deepEqual(home.match(new RegExp(`href="[^"]*${unkeyed}[^"]*"`, 'gu')), [
			`href="/servers/${unkeyed}/manage?lang=de"`,
		]);
		const keyless = await admin.request(`/servers/${unkeyed}/manage`);
		assert.equal(keyless.status, 404, 'the same 404 as its server page');
		const keylessPage = await keyless.text();
		assert.match(keylessPage, /<input id="key-input" type="password" name="key" autocomplete="off"/u);
		assert.ok(keylessPage.includes(escapeText(en('web.manage.keyNone'))), 'it says why, and gives the key form');
		assert.doesNotMatch(keylessPage, /id="settings"|id="reports"|id="alerts"/u, 'nothing that needs a key');

		assertBackTo(await admin.post(`/servers/${unkeyed}/key`, { key: otherKey }), unkeyed);
		const keyed = await (await admin.request('/')).text();
		assert.match(keyed, new RegExp(`<a href="/servers/${unkeyed}">`, 'u'), 'with its key, its server page');
		assert.doesNotMatch(keyed, new RegExp(`/servers/${unkeyed}/manage`, 'u'), 'and nothing left to set up');
		assertBackTo(await admin.post(`/servers/${unkeyed}/key`, { action: 'remove' }), unkeyed);

		const member = await (await (await loggedIn(MEMBER)).request('/')).text();
		assert.match(member, new RegExp(`<a href="/servers/${guildId}">`, 'u'));
		assert.doesNotMatch(member, /\/manage/u, 'nothing to manage for a member');
		assert.doesNotMatch(member, new RegExp(unkeyed, 'u'));
	});

	function assertBackTo(response: Response, server: string) {
		assert.equal(response.status, 303);
		assert.match(response.headers.get('location') ?? '', new RegExp(`^/servers/${server}/manage\\?done=key-`, 'u'));
	}
});

describe('every POST', () => {
	it('changes nothing without Origin or from another origin (403)', async () => {
		const admin = await loggedIn(ADMIN);
		const before = await storedState();
		for (const [path, fields] of [...validForms(), ['/me/key', { key: memberKey }], ['/me/unlink', {}]] as const) {
			assert.equal((await admin.post(path, fields, null)).status, 403, `${path} without Origin`);
			assert.equal((await admin.post(path, fields, 'https://evil.example')).status, 403, `${path} from elsewhere`);
		}
		assert.deepEqual(await storedState(), before);
		assert.equal(await h.services.ctx.links.getUserLink(ADMIN), null);
	});

	it('answers a 401 page with a login link without a session', async () => {
		const before = await storedState();
		for (const [path, fields] of [...validForms(), ['/me/key', { key: memberKey }], ['/me/unlink', {}]] as const) {
			const response = await new RecordingBrowser(h.app).post(path, fields);
			assert.equal(response.status, 401, path);
			assert.match(await response.text(), /href="\/login"/u, path);
		}
		assert.deepEqual(await storedState(), before);
	});

	it('refuses a member without Manage Server with 403 and stores nothing', async () => {
		const member = await loggedIn(MEMBER);
		const before = await storedState();
		const lines = auditLines().length;
		for (const [path, fields] of validForms()) {
			const response = await member.post(path, fields);
			assert.equal(response.status, 403, path);
			assert.match(await response.text(), /Manage Server/u, path);
		}
		for (const [path, fields] of [
			[`/servers/${guildId}/key`, { action: 'remove' }],
			[`/servers/${guildId}/settings`, { action: 'reset' }],
			[`/servers/${guildId}/alerts`, { action: 'remove', id: 'abcd' }],
		] as const) {
			assert.equal((await member.post(path, fields)).status, 403, `${path} ${fields.action}`);
		}
		assert.deepEqual(await storedState(), before);
		assert.equal(auditLines().length, lines, 'no audit line');
	});

	it('reads Manage Server when the POST arrives: a member who lost it after the page loaded is refused', async () => {
		const browser = await loggedIn(DEMOTED);
		h.sandbox.setMemberRoles(guildId, DEMOTED, [managersRole]);
		h.advance(61_000); // the role given after login shows once the page cache has passed
		assert.equal((await browser.request(managePath())).status, 200);
		h.sandbox.setMemberRoles(guildId, DEMOTED, []);
		// Within the page's 60 s cache: the POST still reads the member again.
		const before = await storedState();
		for (const [path, fields] of validForms()) {
			assert.equal((await browser.post(path, fields)).status, 403, path);
		}
		assert.deepEqual(await storedState(), before);
	});

	it("takes Manage Server from the bot token's read only: a guild list from login that still says so opens nothing", async () => {
		const browser = await loggedIn(LISTED_ADMIN);
		assert.equal((await browser.request(managePath())).status, 200);
		h.sandbox.setMemberRoles(guildId, LISTED_ADMIN, []);
		const session = await h.deps.web.readSession(browser.cookies.get('adstats_session')!);
		const listed = session?.guilds.find((entry) => entry.id === guildId);
		assert.ok(listed && userGuildManages(listed), 'the session still says they manage the server');
		const before = await storedState();
		const lines = auditLines().length;
		for (const [path, fields] of validForms()) {
			const response = await browser.post(path, fields);
			assert.equal(response.status, 403, path);
			assert.match(await response.text(), /Manage Server/u, path);
		}
		assert.deepEqual(await storedState(), before);
		assert.equal(auditLines().length, lines, 'no audit line');
		h.advance(61_000);
		assert.equal((await browser.request(managePath())).status, 403, 'the page too, once its cache has passed');
	});
});

describe("an action's refusal", () => {
	async function refused(browser: Browser, path: string, fields: Record<string, string>, words: string) {
		const before = await storedState();
		const lines = auditLines().length;
		const response = await browser.post(path, fields);
		assert.equal(response.status, 400, `${path} ${JSON.stringify(fields)}`);
		const body = await response.text();
		assertWords(body, words);
		assert.match(body, new RegExp(`href="${managePath()}"`, 'u'), 'a way back');
		assert.deepEqual(await storedState(), before, 'nothing stored');
		assert.equal(auditLines().length, lines, 'no audit line');
		return body;
	}

	it('refuses a sixth report with the words of /report add', async () => {
		const admin = await loggedIn(ADMIN);
		for (const channel of textChannels.slice(4, 9)) {
			const added = await admin.post(`/servers/${guildId}/reports`, {
				channel,
				every: 'daily',
				hour: '9',
				timezone: 'UTC',
			});
			assert.equal(added.status, 303);
		}
		await refused(
			admin,
			`/servers/${guildId}/reports`,
			{ channel: textChannels[10]!, every: 'daily', hour: '9', timezone: 'UTC' },
			en('report.tooMany', { max: 5 }),
		);
		for (const channel of textChannels.slice(4, 9)) {
			assert.equal((await admin.post(`/servers/${guildId}/reports`, { action: 'remove', channel })).status, 303);
		}
		assert.equal((await reports()).length, 0);
	});

	it('refuses a time zone the bot does not know, and a weekday for a daily report', async () => {
		const admin = await loggedIn(ADMIN);
		const body = await refused(
			admin,
			`/servers/${guildId}/reports`,
			{ channel: textChannels[2]!, every: 'daily', hour: '9', timezone: 'Mars/Olympus_Mons' },
			en('report.invalidTimezone', { timezone: 'Mars/Olympus_Mons' }),
		);
		assert.match(body, /<code>Mars\/Olympus_Mons<\/code>/u);
		await refused(
			admin,
			`/servers/${guildId}/reports`,
			{ channel: textChannels[2]!, every: 'daily', hour: '9', timezone: 'UTC', weekday: 'tue' },
			en('report.weekdayNeedsWeekly'),
		);
	});

	it("refuses a threshold out of range with the words of /alert add, in the member's language", async () => {
		const admin = await loggedIn(ADMIN);
		await refused(
			admin,
			`/servers/${guildId}/alerts`,
			{ kind: 'failed-share', channel: textChannels[2]!, threshold: '150' },
			en('watch.alert.invalidThreshold', { min: 1, max: 100 }),
		);
		await refused(
			admin,
			`/servers/${guildId}/alerts`,
			{ kind: 'no-sends', channel: textChannels[2]!, threshold: 'soon' },
			en('watch.alert.invalidThreshold', { min: 1, max: 72 }),
		);
		const german = await loggedIn(ADMIN, 'de');
		await refused(
			german,
			`/servers/${guildId}/alerts`,
			{ kind: 'no-sends', channel: textChannels[2]!, threshold: '100' },
			translator('de')('watch.alert.invalidThreshold', { min: 1, max: 72 }),
		);
	});

	it("refuses a channel of the wrong kind, and one the server does not have, with each kind's words", async () => {
		const admin = await loggedIn(ADMIN);
		const elsewhere = h.sandbox.guilds[1]!.channelIds[0]!;
		for (const channel of [voiceChannel, elsewhere, '123456789012345678']) {
			await refused(
				admin,
				`/servers/${guildId}/alerts`,
				{ kind: 'no-sends', channel, threshold: '24' },
				en('watch.alert.notTextChannel'),
			);
			await refused(
				admin,
				`/servers/${guildId}/reports`,
				{ channel, every: 'daily', hour: '9', timezone: 'UTC' },
				en('report.notTextChannel'),
			);
			await refused(
				admin,
				`/servers/${guildId}/settings`,
				{ 'share-channel': channel },
				en('settings.notTextChannel', { option: 'share-channel' }),
			);
		}
		for (const channel of [textChannels[2]!, elsewhere]) {
			await refused(
				admin,
				`/servers/${guildId}/stat-channels`,
				{ channel, figure: 'sends-today' },
				en('watch.statChannel.wrongType'),
			);
		}
	});

	it('asks for the confirmation box in the form; the route resets on action=reset', async () => {
		await h.services.ctx.settings.update(guildId, { defaultMetric: 'joins', shareRoleId: readersRole });
		const admin = await loggedIn(ADMIN);
		const page = await (await admin.request(managePath())).text();
		const form = /<form method="post" action="[^"]+\/settings" class="reset">([\s\S]*?)<\/form>/u.exec(page)?.[1];
		assert.ok(form, 'the reset form');
		assert.match(form, /<input\s+id="reset-confirm"\s+type="checkbox"\s+name="confirm"\s+value="yes"\s+required/u);
		assert.ok(form.includes(en('web.manage.resetConfirm')), 'the box says what it confirms');
		assert.ok(!page.includes(escapeText(en('settings.resetConfirm'))), "not the slash command's question");
		const answer = await admin.post(`/servers/${guildId}/settings`, { action: 'reset' });
		assert.equal(answer.status, 303);
		const settings = await h.services.ctx.settings.get(guildId);
		assert.deepEqual([settings.defaultMetric, settings.shareRoleId], ['sends', null]);
	});

	it('refuses a role the server does not have, @everyone included', async () => {
		const admin = await loggedIn(ADMIN);
		for (const role of [guildId, '123456789012345678']) {
			await refused(
				admin,
				`/servers/${guildId}/settings`,
				{ 'server-stats-role': role },
				en('settings.roleNotChoosable'),
			);
		}
	});

	it("refuses a bot's own (managed) role with /settings set's words: the settings action asks Discord", async () => {
		const botRole = h.sandbox.guilds.find((guild) => guild.id === guildId)!.botRoleId!;
		const before = await h.services.ctx.settings.get(guildId);
		const admin = await loggedIn(ADMIN);
		await refused(admin, `/servers/${guildId}/settings`, { 'share-role': botRole }, en('settings.roleManaged'));
		assert.deepEqual(await h.services.ctx.settings.get(guildId), before, 'nothing stored');
	});

	it('says a stat channel or board added paused, with the reason, as /statchannel add and /board add do', async () => {
		const admin = await loggedIn(ADMIN);
		for (const [code, key, reason] of [
			['statchannel-paused-gone', 'web.manage.done.statChannelPaused', 'watch.paused.channelGone'],
			['board-paused-permissions', 'web.manage.done.boardPaused', 'watch.paused.missingPermissions'],
		] as const) {
			const page = await (await admin.request(`${managePath()}?done=${code}`)).text();
			const line = /<p class="outcome" role="status">([^<]*)<\/p>/u.exec(page)?.[1];
			assert.equal(line, escapeText(en(key, { reason: en(reason) })), code);
		}
	});

	it('refuses a key the stats API rejects with the words of /server-key set and /link, keeping the old one', async () => {
		const rejected = `${serverKey.slice(0, -6)}zzzzzz`;
		typedKeys.push(rejected);
		const admin = await loggedIn(ADMIN);
		await refused(admin, `/servers/${guildId}/key`, { key: rejected }, en('errors.serverLinkKeyRejected'));
		assert.equal((await h.services.ctx.links.getServerLink(guildId))?.accountName, 'Server_Ads');
		const own = await admin.post('/me/key', { key: rejected });
		assert.equal(own.status, 400);
		assertWords(await own.text(), en('errors.linkKeyRejected'));
		assert.equal(await h.services.ctx.links.getUserLink(ADMIN), null, 'nothing linked');
	});

	it('shows the channel a refusal names by its name', async () => {
		const admin = await loggedIn(ADMIN);
		h.sandbox.setChannelOverwrites(textChannels[12]!, [{ id: h.sandbox.botUserId, type: 1, deny: 2048n }]);
		const body = await refused(
			admin,
			`/servers/${guildId}/reports`,
			{ channel: textChannels[12]!, every: 'daily', hour: '9', timezone: 'UTC' },
			en('report.cannotPost', { channelId: textChannels[12], permissions: 'x' }).split(':')[0]!,
		);
		assert.match(body, /<strong>#channel-13<\/strong>/u);
		h.sandbox.setChannelOverwrites(textChannels[12]!, []);
	});
});

describe('a success', () => {
	function assertBack(response: Response, outcome: string, section: string) {
		assert.equal(response.status, 303);
		assert.equal(response.headers.get('location'), `${managePath()}?done=${outcome}#${section}`);
	}

	it('saves the settings that changed, says so on the page, and audits them as from the dashboard', async () => {
		const admin = await loggedIn(ADMIN);
		const page = await (await admin.request(managePath())).text();
		const form = /<form method="post" action="[^"]+\/settings">([\s\S]*?)<\/form>/u.exec(page)![1]!;
		// Everything the browser would send: each select's chosen option, two of them changed.
		const fields: Record<string, string> = {};
		for (const [, name, options] of form.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/gu)) {
			fields[name!] =
				/<option value="([^"]*)" selected/u.exec(options!)?.[1] ?? /<option value="([^"]*)"/u.exec(options!)![1]!;
		}
		fields['default-days'] = '90';
		fields['server-stats-role'] = readersRole;
		assertBack(await admin.post(`/servers/${guildId}/settings`, fields), 'settings-saved', 'settings');
		const settings = await h.services.ctx.settings.get(guildId);
		assert.equal(settings.defaultDays, 90);
		assert.equal(settings.serverStatsRoleId, readersRole);
		assert.equal(settings.auditChannelId, auditChannel, 'the rest as it was');
		const line = auditLines().at(-1)!;
		assert.match(line, new RegExp(`^<@${ADMIN}> \\(dashboard\\) `, 'u'));
		assert.match(line, /default-days/u);
		assert.match(line, /server-stats-role/u);
		assert.doesNotMatch(line, /share-channel|language/u, 'only what changed');
		const after = await (await admin.request(`${managePath()}?done=settings-saved`)).text();
		assert.match(after, /<p class="outcome" role="status">Settings saved\.<\/p>/u);
		assert.match(after, new RegExp(`<option value="${readersRole}" selected>`, 'u'));
	});

	it('resets the settings, and unsets a role with an empty choice', async () => {
		const admin = await loggedIn(ADMIN);
		await h.services.ctx.settings.update(guildId, { shareRoleId: readersRole, defaultMetric: 'joins' });
		assertBack(await admin.post(`/servers/${guildId}/settings`, { 'share-role': '' }), 'settings-saved', 'settings');
		assert.equal((await h.services.ctx.settings.get(guildId)).shareRoleId, null);
		const reset = await admin.post(`/servers/${guildId}/settings`, { action: 'reset', confirm: 'yes' });
		assertBack(reset, 'settings-reset', 'settings');
		assert.equal((await h.services.ctx.settings.get(guildId)).defaultMetric, 'sends');
		assert.match(auditLines().at(-1)!, new RegExp(`^<@${ADMIN}> \\(dashboard\\) `, 'u'));
	});

	it('adds and removes a report as /report add and /report remove would', async () => {
		const admin = await loggedIn(ADMIN);
		const channel = textChannels[2]!;
		const added = await admin.post(`/servers/${guildId}/reports`, {
			channel,
			every: 'weekly',
			hour: '17',
			timezone: 'Europe/Berlin',
			weekday: 'fri',
		});
		assertBack(added, 'report-added', 'reports');
		const [record] = await reports();
		assert.equal(record?.channelId, channel);
		assert.deepEqual(
			[record?.every, record?.hour, record?.timezone, record?.weekday],
			['weekly', 17, 'Europe/Berlin', 'fri'],
		);
		assert.equal(record?.createdBy, ADMIN);
		assert.match(auditLines().at(-1)!, new RegExp(`^<@${ADMIN}> \\(dashboard\\) .*<#${channel}>`, 'u'));
		const page = await (await admin.request(managePath())).text();
		assert.match(page, /<strong>#channel-3<\/strong>/u, 'the list names the channel');
		assertBack(
			await admin.post(`/servers/${guildId}/reports`, { channel, every: 'daily', hour: '9', timezone: 'UTC' }),
			'report-replaced',
			'reports',
		);
		assertBack(
			await admin.post(`/servers/${guildId}/reports`, { action: 'remove', channel }),
			'report-removed',
			'reports',
		);
		assert.equal((await reports()).length, 0);
		assert.match(auditLines().at(-1)!, new RegExp(`^<@${ADMIN}> \\(dashboard\\) `, 'u'));
		assertBack(
			await admin.post(`/servers/${guildId}/reports`, { action: 'remove', channel }),
			'nothing-removed',
			'reports',
		);
	});

	it('adds and removes a stat channel, renamed at once', async () => {
		const admin = await loggedIn(ADMIN);
		const added = await admin.post(`/servers/${guildId}/stat-channels`, { channel: voiceChannel, figure: 'sends-all' });
		assertBack(added, 'statchannel-added', 'stat-channels');
		const record = await watch().statChannels.get(guildId, voiceChannel);
		assert.equal(record?.figure, 'sends-all');
		assert.equal(record?.createdBy, ADMIN);
		assert.match(h.sandbox.channel(voiceChannel)!.name ?? '', /^Sends all time: /u);
		assert.ok(auditLines().some((line) => line.startsWith(`<@${ADMIN}> (dashboard) made <#${voiceChannel}>`)));
		const removed = await admin.post(`/servers/${guildId}/stat-channels`, { action: 'remove', channel: voiceChannel });
		assertBack(removed, 'statchannel-removed', 'stat-channels');
		assert.equal(await watch().statChannels.get(guildId, voiceChannel), null);
	});

	it('adds a board, posted at once, and removes it, as /board add and /board remove would', async () => {
		const admin = await loggedIn(ADMIN);
		const channel = textChannels[4]!;
		assertBack(
			await admin.post(`/servers/${guildId}/boards`, { channel, days: '7', metric: 'joins' }),
			'board-added',
			'boards',
		);
		const board = await boardStoreOf(h.services.ctx).get(guildId, channel);
		assert.deepEqual([board?.days, board?.metric, board?.createdBy], [7, 'joins', ADMIN]);
		assert.ok(h.sandbox.channelMessages(channel).some((message) => message.id === board?.messageId));
		assert.ok(auditLines().some((line) => line.startsWith(`<@${ADMIN}> (dashboard) added a board (joins, 7 days)`)));
		const page = await (await admin.request(`/servers/${guildId}/manage`)).text();
		assert.match(page, new RegExp(`<span id="boards-${channel}">`, 'u'));
		assertBack(
			await admin.post(`/servers/${guildId}/boards`, { action: 'remove', channel }),
			'board-removed',
			'boards',
		);
		assert.equal(await boardStoreOf(h.services.ctx).get(guildId, channel), null);
	});

	it('adds and removes an alert as /alert add and /alert remove would', async () => {
		const admin = await loggedIn(ADMIN);
		const channel = textChannels[3]!;
		assertBack(
			await admin.post(`/servers/${guildId}/alerts`, { kind: 'failed-share', channel, threshold: '25' }),
			'alert-added',
			'alerts',
		);
		const [alert] = await watch().alerts.listServer(guildId);
		assert.deepEqual(
			[alert?.kind, alert?.threshold, alert?.channelId, alert?.createdBy],
			['failed-share', 25, channel, ADMIN],
		);
		assert.match(auditLines().at(-1)!, new RegExp(`^<@${ADMIN}> \\(dashboard\\) added alert \`${alert!.id}\``, 'u'));
		const page = await (await admin.request(`${managePath()}?done=alert-added`)).text();
		assert.match(page, /<p class="outcome" role="status">Alert added\.<\/p>/u);
		assert.match(page, new RegExp(`<code>${alert!.id}</code>`, 'u'));
		// The row says the rule first, then where it posts and its state, and names the id as the alert's.
		const row = new RegExp(`<span id="alerts-${alert!.id}">([\\s\\S]*?)</li>`, 'u').exec(page)?.[1] ?? '';
		const rule = en('watch.rules.failed-share', { threshold: '25' });
		const title = /<span class="row-title[^"]*">([^<]*)<\/span>/u.exec(row)?.[1];
		assert.equal(title, escapeText(rule), `the rule is the title: ${row}`);
		const where = en('web.manage.alertChannel', { channelId: channel }).split('<#')[0]!;
		assert.ok(row.indexOf(where) > row.indexOf(title!), 'then where it posts');
		assert.ok(row.includes(`${en('web.manage.alertId', { id: alert!.id }).split('`')[0]!}<code>${alert!.id}</code>`));
		assertBack(
			await admin.post(`/servers/${guildId}/alerts`, { action: 'remove', id: alert!.id }),
			'alert-removed',
			'alerts',
		);
		assert.deepEqual(await watch().alerts.listServer(guildId), []);
		assert.match(auditLines().at(-1)!, new RegExp(`^<@${ADMIN}> \\(dashboard\\) removed alert`, 'u'));
	});

	it('sets and removes the server key, naming the account and its hint only', async () => {
		const admin = await loggedIn(ADMIN);
		assertBack(await admin.post(`/servers/${guildId}/key`, { key: otherKey }), 'key-set', 'key');
		const link = await h.services.ctx.links.getServerLink(guildId);
		assert.equal(link?.accountName, 'Other_Ads');
		assert.equal(link?.linkedBy, ADMIN);
		assert.match(auditLines().at(-1)!, new RegExp(`^<@${ADMIN}> \\(dashboard\\) .*${otherKey.slice(-4)}`, 'u'));
		const page = await (await admin.request(`${managePath()}?done=key-set`)).text();
		assert.match(page, /Other_Ads/u);
		assert.ok(page.includes(`…${otherKey.slice(-4)}`), 'the 4-character hint');
		assertBack(await admin.post(`/servers/${guildId}/key`, { action: 'remove' }), 'key-removed', 'key');
		assert.equal(await h.services.ctx.links.getServerLink(guildId), null);
		const without = await admin.request(`${managePath()}?done=key-removed`);
		assert.equal(without.status, 404, 'without a key, the same 404 as the server page');
		const withoutPage = await without.text();
		assert.ok(withoutPage.includes(escapeText(en('serverKey.removed'))), 'with the outcome of the removal');
		assert.match(withoutPage, /id="key-input"/u, 'and the form that gives the server a key again');
		assertBack(await admin.post(`/servers/${guildId}/key`, { action: 'remove' }), 'key-absent', 'key');
		assertBack(await admin.post(`/servers/${guildId}/key`, { key: serverKey }), 'key-set', 'key');
	});

	it('turns the public page on and off from the manage page', async () => {
		const admin = await loggedIn(ADMIN);
		assertBack(
			await admin.post(`/servers/${guildId}/public`, { enabled: 'on', return: 'manage' }),
			'public-on',
			'public',
		);
		const page = await (await admin.request(managePath())).text();
		assert.match(page, new RegExp(`id="public-link" href="${PUBLIC_URL}/p/`, 'u'));
		assertBack(
			await admin.post(`/servers/${guildId}/public`, { enabled: 'off', return: 'manage' }),
			'public-off',
			'public',
		);
		assert.equal(await publicToken(h.services.ctx, guildId), null);
	});

	it("links and unlinks a member's own key from /me", async () => {
		const member = await loggedIn(MEMBER);
		const linked = await member.post('/me/key', { key: memberKey });
		assert.equal(linked.status, 303);
		assert.equal(linked.headers.get('location'), '/me?done=key-linked');
		assert.equal((await h.services.ctx.links.getUserLink(MEMBER))?.accountName, 'Member_Ads');
		const page = await (await member.request('/me?done=key-linked')).text();
		assert.match(page, /<p class="outcome" role="status">Your key is linked\.<\/p>/u);
		assert.match(page, /<input\s+id="own-key-input"\s+type="password"\s+name="key"\s+autocomplete="off"/u);
		const unlinked = await member.post('/me/unlink');
		assert.equal(unlinked.headers.get('location'), '/me?done=unlinked');
		assert.equal(await h.services.ctx.links.getUserLink(MEMBER), null);
		assert.equal((await member.post('/me/unlink')).headers.get('location'), '/me?done=nothing-unlinked');
	});

	it("holds /link's cooldown: a second key within it is refused in those words, and nothing is linked", async () => {
		const member = await loggedIn(MEMBER);
		const rejected = `${memberKey.slice(0, -6)}yyyyyy`;
		typedKeys.push(rejected);
		assert.equal((await member.post('/me/key', { key: rejected })).status, 400);
		const again = await member.post('/me/key', { key: memberKey });
		assert.equal(again.status, 400);
		const body = await again.text();
		// Whole seconds left of the 3 s cooldown: 3, or less on a slow machine.
		const said = [3, 2, 1].map((seconds) => en('errors.cooldown', { seconds }));
		assert.ok(
			said.some((words) => body.includes(escapeText(words))),
			`the cooldown's words, got ${body.slice(0, 300)}`,
		);
		assert.equal(await h.services.ctx.links.getUserLink(MEMBER), null, 'nothing linked during the cooldown');
	});
});

describe('a key typed into a form', () => {
	it('appears in no page, redirect, log line, or store entry in clear', () => {
		const pages = answered.join('\n');
		const logs = h.logs.join('\n');
		const store = readdirSync(h.dir)
			.filter((file) => file.startsWith('bot.sqlite'))
			.map((file) => readFileSync(join(h.dir, file)).toString('latin1'))
			.join('\n');
		assert.ok(answered.length > 50, 'the pages were recorded');
		for (const key of typedKeys) {
			for (const [where, text] of [
				['a page or redirect', pages],
				['a log line', logs],
				['the store', store],
			] as const) {
				assert.ok(!text.includes(key), `the key in ${where}`);
				assert.ok(!text.includes(key.slice(4, -4)), `most of the key in ${where}`);
			}
		}
	});
});

describe('the Goals section', () => {
	it('sets a server goal as /goal set would, shows it, audits it as from the dashboard, and removes it', async () => {
		const admin = await loggedIn(ADMIN);
		const set = await admin.post(`/servers/${guildId}/goals`, { metric: 'joins', target: '750', period: 'week' });
		assert.equal(set.status, 303);
		assert.equal(set.headers.get('location'), `${managePath()}?done=goal-set#goals`);
		assert.deepEqual(
			(await goalStoreOf(h.services.ctx).read({ scope: 'server', guildId })).map((goal) => [
				goal.metric,
				goal.period,
				goal.target,
			]),
			[['joins', 'week', 750]],
		);
		assert.match(
			auditLines().at(-1)!,
			new RegExp(`^🎯 <@${ADMIN}> \\(dashboard\\) set the server goal joins this week to 750 `, 'u'),
		);
		const page = await (await admin.request(`${managePath()}?done=goal-set`)).text();
		assert.match(page, /<p class="outcome" role="status">Goal set\.<\/p>/u);
		// Its state as /goal show words it: progress against the target, and the forecast or when one comes.
		assert.match(
			page,
			/<section id="goals"[\s\S]*joins this week<\/span>\s*<span class="row-detail">[\d,]+ \/ 750 \(\d+ %\); (on pace for|forecast from) /u,
		);
		const removed = await admin.post(`/servers/${guildId}/goals`, {
			action: 'remove',
			metric: 'joins',
			period: 'week',
		});
		assert.equal(removed.headers.get('location'), `${managePath()}?done=goal-removed#goals`);
		assert.deepEqual(await goalStoreOf(h.services.ctx).read({ scope: 'server', guildId }), []);
		const again = await admin.post(`/servers/${guildId}/goals`, { action: 'remove', metric: 'joins', period: 'week' });
		assert.equal(again.headers.get('location'), `${managePath()}?done=nothing-removed#goals`);
	});

	it('refuses target 0 with the words of /goal set, storing nothing', async () => {
		const admin = await loggedIn(ADMIN);
		const lines = auditLines().length;
		const response = await admin.post(`/servers/${guildId}/goals`, { metric: 'sends', target: '0', period: 'month' });
		assert.equal(response.status, 400);
		assertWords(await response.text(), en('goal.invalidTarget'));
		assert.deepEqual(await goalStoreOf(h.services.ctx).read({ scope: 'server', guildId }), []);
		assert.equal(auditLines().length, lines);
	});
});
