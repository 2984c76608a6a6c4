import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { Browser, createAccount, logIn, MANAGE_GUILD, startWebHarness, type WebHarness } from './web-harness.js';

const ALICE = '310000000000000301';
const ADMIN = '310000000000000302';

interface StatsJson {
	days: number;
	from: string;
	to: string;
	series: { date: string; sends: number | null }[];
	comparisons: { sends: Record<string, { from: string; to: string; current: number | null } | undefined> };
}

let h: WebHarness;
let guildId: string;
let today: string;

before(async () => {
	h = await startWebHarness();
	[guildId = ''] = h.sandbox.guildIds;
	const managers = h.sandbox.addRole(guildId, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
	h.sandbox.setMember(guildId, ADMIN, { roles: [managers] });
	await h.services.ctx.links.linkUser(ALICE, createAccount(h, 'Alice_Ads'));
	await h.services.ctx.links.linkServer(guildId, createAccount(h, 'Server_Ads'), ADMIN);
	today = utcDateOf(h.deps.now!());
});
after(() => h.close());

async function loggedIn(userId: string): Promise<Browser> {
	const browser = new Browser(h.app);
	assert.equal((await logIn(h, browser, userId)).status, 302);
	return browser;
}

async function json(browser: Browser, path: string): Promise<StatsJson> {
	const response = await browser.request(path);
	assert.equal(response.status, 200, path);
	return (await response.json()) as StatsJson;
}

describe('any date range on the dashboard', () => {
	it('the JSON view runs its series from `from` to `to` and names both, with the range compared', async () => {
		const browser = await loggedIn(ALICE);
		const from = addDays(today, -20);
		const to = addDays(today, -11);
		const view = await json(browser, `/api/me/stats?from=${from}&to=${to}&days=7`);
		assert.equal(view.from, from);
		assert.equal(view.to, to);
		assert.equal(view.days, 10, 'from/to win over days');
		assert.deepEqual(
			view.series.map((day) => day.date),
			Array.from({ length: 10 }, (_, index) => addDays(from, index)),
		);
		assert.ok(
			view.series.every((day) => day.sends !== null),
			'the endpoint’s 30 days are known',
		);
		const range = view.comparisons.sends.range!;
		assert.equal(range.from, from);
		assert.equal(range.to, to);
		assert.equal(
			range.current,
			view.series.reduce((total, day) => total + day.sends!, 0),
		);
	});

	it('a 365-day range and a one-day range; `from` alone runs to today', async () => {
		const browser = await loggedIn(ALICE);
		const year = await json(browser, `/api/me/stats?from=${addDays(today, -364)}&to=${today}`);
		assert.equal(year.series.length, 365);
		assert.equal(year.series.at(-1)?.date, today);
		const oneDay = await json(browser, `/api/me/stats?from=${addDays(today, -3)}&to=${addDays(today, -3)}`);
		assert.deepEqual(
			oneDay.series.map((day) => day.date),
			[addDays(today, -3)],
		);
		const fromAlone = await json(browser, `/api/me/stats?from=${addDays(today, -4)}`);
		assert.equal(fromAlone.to, today);
		assert.equal(fromAlone.series.length, 5);
	});

	it('without from/to the days choice stays as it was, and the JSON names its days', async () => {
		const browser = await loggedIn(ALICE);
		const view = await json(browser, '/api/me/stats?days=14');
		assert.equal(view.days, 14);
		assert.equal(view.from, addDays(today, -13));
		assert.equal(view.to, today);
		assert.equal(view.series.length, 14);
		assert.equal(view.comparisons.sends.range, undefined);
		// An empty form field is no range.
		assert.equal((await json(browser, '/api/me/stats?days=7&from=&to=')).series.length, 7);
	});

	it('the CSV rows run from `from` to `to`, in a file named after them', async () => {
		const browser = await loggedIn(ALICE);
		const from = addDays(today, -9);
		const to = addDays(today, -5);
		for (const path of [`/me/export.csv`, `/servers/${guildId}/export.csv`]) {
			const browserFor = path.startsWith('/me') ? browser : await loggedIn(ADMIN);
			const response = await browserFor.request(`${path}?from=${from}&to=${to}`);
			assert.equal(response.status, 200, path);
			assert.equal(response.headers.get('content-disposition'), `attachment; filename="adstats-${from}-${to}.csv"`);
			const lines = (await response.text()).trimEnd().split('\r\n');
			assert.equal(lines.length, 6);
			assert.ok(lines[1]!.startsWith(`${from},`));
			assert.ok(lines[5]!.startsWith(`${to},`));
		}
	});

	it('a bad range is a 400: the JSON error body on the JSON and CSV routes, the 400 page on a page', async () => {
		const admin = await loggedIn(ADMIN);
		const bad = {
			reversed: `from=${addDays(today, -1)}&to=${addDays(today, -2)}`,
			future: `to=${addDays(today, 1)}`,
			notADay: 'from=2026-02-30',
			notLeap: 'from=2027-02-29',
			malformed: 'from=last-week',
			tooLong: `from=${addDays(today, -365)}&to=${today}`,
		};
		for (const [why, query] of Object.entries(bad)) {
			for (const path of [`/api/servers/${guildId}/stats`, `/servers/${guildId}/export.csv`]) {
				const response = await admin.request(`${path}?${query}`);
				assert.equal(response.status, 400, `${why} ${path}`);
				const body = (await response.json()) as { error: { code: string; message: string } };
				assert.equal(body.error.code, 'bad_request', why);
				assert.ok(body.error.message.length > 0, why);
			}
			const page = await admin.request(`/servers/${guildId}?${query}`);
			assert.equal(page.status, 400, why);
			assert.match(await page.text(), /<html lang="en-US">/u, why);
		}
		const tooLong = await admin.request(`/api/servers/${guildId}/stats?${bad.tooLong}`);
		assert.equal(
			((await tooLong.json()) as { error: { message: string } }).error.message,
			'That range has 366 days; at most 365 fit in one chart or file.',
		);
		const reversed = await (await admin.request(`/servers/${guildId}?${bad.reversed}`)).text();
		assert.ok(
			reversed.includes(`<code>from</code> (${addDays(today, -1)}) is after <code>to</code> (${addDays(today, -2)})`),
			'the page names the reason',
		);
	});

	it('the pages offer two date inputs in a GET form, keep the range in the metric and CSV links', async () => {
		const admin = await loggedIn(ADMIN);
		const from = addDays(today, -12);
		const to = addDays(today, -6);
		const body = await (await admin.request(`/servers/${guildId}?from=${from}&to=${to}&metric=sends`)).text();
		assert.match(body, new RegExp(`<form class="choices range" method="get" action="/servers/${guildId}">`, 'u'));
		assert.match(body, new RegExp(`<input type="date" name="from" value="${from}" max="${today}"`, 'u'));
		assert.match(body, new RegExp(`<input type="date" name="to" value="${to}" max="${today}"`, 'u'));
		assert.match(body, /<input type="hidden" name="metric" value="sends" \/>/u);
		assert.equal((body.match(/<tr data-date=/gu) ?? []).length, 7);
		assert.ok(body.includes(`metric=joins&amp;from=${from}&amp;to=${to}`), 'a metric link keeps the range');
		assert.ok(body.includes(`export.csv?days=30&amp;from=${from}&amp;to=${to}`), 'the CSV link too');
		assert.doesNotMatch(body, /aria-current="page" class="current">30</u, 'no day choice is current');
		assert.ok(body.includes('against as many days before'), 'the range is compared');
		const me = await (await (await loggedIn(ALICE)).request(`/me?from=${from}&to=${to}`)).text();
		assert.match(me, /<input type="date" name="from"/u);
		assert.equal((me.match(/<tr data-date=/gu) ?? []).length, 7);
	});

	it('a range reaching before the history says from when the bot knows figures', async () => {
		const browser = await loggedIn(ALICE);
		// The history holds the endpoint's 30 days: it starts 29 days ago.
		const known = addDays(today, -29);
		const reaching = await (await browser.request(`/me?from=${addDays(today, -59)}&to=${today}`)).text();
		assert.match(reaching, /History starts on/u);
		const before = await (await browser.request(`/me?from=${addDays(today, -90)}&to=${addDays(today, -60)}`)).text();
		assert.match(before, /The bot knows figures from .+ on; the days before it are unknown\./u);
		assert.doesNotMatch(before, /id="chart-data"/u, 'no chart of empty days');
		const view = await json(browser, `/api/me/stats?from=${addDays(today, -40)}&to=${addDays(today, -20)}`);
		assert.equal(view.series.find((day) => day.sends !== null)?.date, known);
	});
});
