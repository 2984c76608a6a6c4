// The dashboard in a real browser: Chromium logs in through the stand-in's OAuth2 pages, the chart is drawn
// by Chart.js in the page, the links change days and metric, the CSV download equals /export's file, logout,
// a public link visited logged out, and an axe-core audit of every page in three languages on a phone-sized
// window. Under CI=true a missing Chromium fails; elsewhere it skips.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startWebStack, WEB_PEOPLE, type WebStack } from '../../scripts/demo/web-stack.js';
import { chromiumMissing, launchChromium, seriousAxeFindings, type LaunchedBrowser } from './browser-support.js';

const missing = chromiumMissing();

type Person = keyof typeof WEB_PEOPLE | 'nobody';

/** Every page of the dashboard as the audit visits it: who looks, where, and what the page answers. */
interface AuditedPage {
	name: string;
	who: Person;
	path(site: { guildId: string; publicPath: string }): string;
	status: number;
}

/** A new page of the dashboard gets a line here, and the audit covers it in every language below. */
const AUDITED_PAGES: AuditedPage[] = [
	{ name: 'home, logged out', who: 'nobody', path: () => '/', status: 200 },
	{ name: 'home, logged in', who: 'member', path: () => '/', status: 200 },
	{ name: 'own account, key linked', who: 'member', path: () => '/me', status: 200 },
	{ name: 'own account, no key', who: 'outsider', path: () => '/me', status: 200 },
	{ name: 'server page', who: 'member', path: (site) => `/servers/${site.guildId}`, status: 200 },
	{ name: "server page, an admin's", who: 'admin', path: (site) => `/servers/${site.guildId}`, status: 200 },
	{ name: 'server page refused', who: 'outsider', path: (site) => `/servers/${site.guildId}`, status: 403 },
	{ name: 'page not found', who: 'nobody', path: () => '/nothing-here', status: 404 },
	{ name: 'public page', who: 'nobody', path: (site) => site.publicPath, status: 200 },
	{ name: 'manage page', who: 'admin', path: (site) => `/servers/${site.guildId}/manage`, status: 200 },
];
const AUDIT_LOCALES = ['en-US', 'de', 'ja'] as const;
const PHONE = { width: 390, height: 844 };

interface ChartState {
	labels: number;
	/** Bars per day: complete days and today's partial bar merged. */
	bars: (number | null)[];
	/** Pixels of the canvas that are not blank. */
	painted: number;
}

interface JsonView {
	days: number;
	metric: string;
	series: { date: string; sends: number | null; joins: number | null; failed_sends: number | null }[];
}

/** What Chart.js drew in the page, read from the page's own Chart instance and canvas. */
async function chartState(page: Page): Promise<ChartState> {
	await page.waitForSelector('canvas#chart[data-drawn="true"]', { timeout: 15_000 });
	return page.evaluate(() => {
		// Runs in the page; this project compiles without the DOM types, so the few parts used are typed here.
		type Dataset = { type?: string; data: (number | null)[] };
		type Canvas = {
			width: number;
			height: number;
			getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
		};
		const page = globalThis as unknown as {
			document: { getElementById(id: string): Canvas };
			Chart: { getChart(canvas: Canvas): { data: { labels: unknown[]; datasets: Dataset[] } } };
		};
		const canvas = page.document.getElementById('chart');
		const chart = page.Chart.getChart(canvas);
		const bars = chart.data.datasets.filter((dataset) => dataset.type === 'bar');
		const merged = chart.data.labels.map(
			(_label, index) =>
				bars.map((dataset) => dataset.data[index]).find((value) => value !== null && value !== undefined) ?? null,
		);
		const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
		let painted = 0;
		for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted += 1;
		return { labels: chart.data.labels.length, bars: merged, painted };
	});
}

/** The JSON view for the page's own session, fetched from inside the page (its cookies, its origin). */
async function jsonView(page: Page, path: string): Promise<JsonView> {
	return page.evaluate(async (url) => (await fetch(url)).json(), path) as Promise<JsonView>;
}

/** The chart's bars equal the JSON's series for the days the chart shows (it starts where history starts). */
function assertChartMatches(chart: ChartState, view: JsonView) {
	const metric = view.metric as 'sends' | 'joins';
	const values = view.series.map((day) => day[metric]).slice(-chart.labels);
	assert.equal(chart.bars.length, chart.labels);
	assert.deepEqual(chart.bars, values);
	assert.ok(
		values.some((value) => (value ?? 0) > 0),
		'the series has figures to compare',
	);
	assert.ok(chart.painted > 1000, `the canvas is drawn on (${chart.painted} pixels)`);
}

/** The server's public link, turned on by the admin (the link stays the same while it is on). */
async function turnOnPublicLink(stack: WebStack, admin: Page): Promise<string> {
	await admin.goto(`${stack.webUrl}/servers/${stack.guildId}`);
	if ((await admin.locator('#public-link').count()) === 0) {
		await admin.click('section.public form:has(input[value="on"]) button');
		await admin.waitForSelector('#public-link');
	}
	return (await admin.getAttribute('#public-link', 'href'))!;
}

async function logIn(stack: WebStack, context: BrowserContext, userId: string): Promise<Page> {
	stack.sandbox.setOAuthUser(userId);
	const page = await context.newPage();
	await page.goto(`${stack.webUrl}/`);
	await page.click('a[href="/login"]');
	await page.waitForURL(`${stack.webUrl}/`);
	return page;
}

if (missing) {
	if (process.env.CI === 'true') test('Chromium is installed in CI', () => assert.fail(missing));
	else test('the dashboard in Chromium', (t) => t.skip(missing));
} else {
	describe('the dashboard in Chromium', () => {
		let stack: WebStack;
		let browser: LaunchedBrowser;

		before(async () => {
			stack = await startWebStack();
			browser = await launchChromium();
		});
		after(async () => {
			await browser?.close();
			await stack?.close();
		});

		it('logs in through Discord, draws the chart with the JSON numbers, switches days and metric', async () => {
			const context = await browser.newContext();
			// A CSP violation (an inline script, a blocked style) shows up as a console error.
			const problems: string[] = [];
			context.on('console', (message) => {
				if (message.type() === 'error') problems.push(message.text());
			});
			context.on('weberror', (error) => problems.push(String(error.error())));
			const page = await logIn(stack, context, WEB_PEOPLE.member);
			assert.ok(await page.isVisible(`a[href="/servers/${stack.guildId}"]`), 'the server is listed');
			const cookies = await context.cookies();
			const session = cookies.find((cookie) => cookie.name === 'adstats_session');
			assert.ok(session?.httpOnly, 'an HttpOnly session cookie');
			assert.equal(session.sameSite, 'Lax');

			await page.click('a[href="/me"]');
			await page.waitForURL(`${stack.webUrl}/me`);
			assertChartMatches(await chartState(page), await jsonView(page, '/api/me/stats'));
			assert.equal(await page.locator('table.series tbody tr').count(), 30);

			await page.click('nav.choices a:text-is("90")');
			await page.waitForURL(/days=90&metric=sends/u);
			const ninety = await chartState(page);
			assert.equal(ninety.labels, 90);
			assertChartMatches(ninety, await jsonView(page, '/api/me/stats?days=90&metric=sends'));

			await page.click('nav.choices a:text-is("Joins")');
			await page.waitForURL(/days=90&metric=joins/u);
			assertChartMatches(await chartState(page), await jsonView(page, '/api/me/stats?days=90&metric=joins'));
			assert.equal(await page.locator('table.series tbody tr').count(), 90);
			assert.deepEqual(problems, [], 'no script error or CSP violation in the page');
			await context.close();
		});

		it('downloads the same CSV as /export', async () => {
			const context = await browser.newContext();
			const page = await logIn(stack, context, WEB_PEOPLE.member);
			await page.goto(`${stack.webUrl}/servers/${stack.guildId}?days=90`);
			const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[download]')]);
			const csv = readFileSync((await download.path())!, 'utf8');
			const exported = await stack.sandbox
				.dispatchCommand({
					name: 'export',
					userId: WEB_PEOPLE.member,
					guildId: stack.guildId,
					options: [
						{ name: 'scope', type: 3, value: 'server' },
						{ name: 'days', type: 4, value: 90 },
					],
				})
				.finalMessage();
			assert.equal(exported.files.length, 1);
			assert.equal(download.suggestedFilename(), exported.files[0]!.name);
			assert.equal(csv, exported.files[0]!.bytes.toString('utf8'));
			await context.close();
		});

		it('refuses a member without the role, naming it', async () => {
			const context = await browser.newContext();
			const page = await context.newPage();
			stack.sandbox.setOAuthUser(WEB_PEOPLE.outsider);
			const response = await page.goto(`${stack.webUrl}/servers/${stack.guildId}`);
			assert.equal(page.url(), `${stack.webUrl}/servers/${stack.guildId}`, 'back on the page after the login');
			assert.equal(response?.status(), 403);
			assert.match((await page.textContent('main')) ?? '', new RegExp(stack.roleName, 'u'));
			await context.close();
		});

		it('logs out', async () => {
			const context = await browser.newContext();
			const page = await logIn(stack, context, WEB_PEOPLE.member);
			await page.click('form[action="/logout"] button');
			await page.waitForURL(`${stack.webUrl}/`);
			assert.ok(await page.isVisible('a[href="/login"]'));
			assert.ok(!(await context.cookies()).some((cookie) => cookie.name === 'adstats_session'));
			stack.sandbox.setOAuthUser(null);
			const me = await page.goto(`${stack.webUrl}/me`);
			assert.equal(me?.status(), 400, 'a new login is needed, and here the member cancels it');
			await context.close();
		});

		it('turns a public link on, shows it logged out, and 404s once it is off', async () => {
			const adminContext = await browser.newContext();
			const admin = await logIn(stack, adminContext, WEB_PEOPLE.admin);
			await admin.goto(`${stack.webUrl}/servers/${stack.guildId}`);
			await admin.click('section.public button');
			await admin.waitForSelector('#public-link');
			const link = (await admin.getAttribute('#public-link', 'href'))!;

			const visitorContext = await browser.newContext();
			const visitor = await visitorContext.newPage();
			const visit = await visitor.goto(link);
			assert.equal(visit?.status(), 200);
			const chart = await chartState(visitor);
			assert.ok(chart.painted > 1000);
			assert.equal(await visitor.locator('a[download]').count(), 0, 'no export');
			assert.equal(await visitor.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow');

			await admin.click('section.public form:has(input[value="off"]) button');
			await admin.waitForSelector('section.public');
			assert.equal(await admin.locator('#public-link').count(), 0);
			assert.equal((await visitor.goto(link))?.status(), 404);
			await adminContext.close();
			await visitorContext.close();
		});

		it('passes an axe-core audit and fits a 390 px window: every page in en-US, de and ja', async () => {
			const adminContext = await browser.newContext();
			const admin = await logIn(stack, adminContext, WEB_PEOPLE.admin);
			const site = { guildId: stack.guildId, publicPath: new URL(await turnOnPublicLink(stack, admin)).pathname };
			const problems: string[] = [];
			for (const locale of AUDIT_LOCALES) {
				const contexts = new Map<Person, BrowserContext>();
				const contextOf = async (who: Person) => {
					let context = contexts.get(who);
					if (!context) {
						context = await browser.newContext({ ...PHONE, locale });
						if (who !== 'nobody') await (await logIn(stack, context, WEB_PEOPLE[who])).close();
						contexts.set(who, context);
					}
					return context;
				};
				for (const audited of AUDITED_PAGES) {
					const page = await (await contextOf(audited.who)).newPage();
					const path = audited.path(site);
					const label = `${locale} ${audited.name} (${path})`;
					const response = await page.goto(`${stack.webUrl}${path}${path.includes('?') ? '&' : '?'}lang=${locale}`);
					assert.equal(response?.status(), audited.status, label);
					assert.equal(await page.getAttribute('html', 'lang'), locale, label);
					assert.match(
						(await page.getAttribute('link[rel="stylesheet"]', 'href')) ?? '',
						/^\/static\/dashboard\.[0-9a-f]{12}\.css$/u,
						`${label}: the stylesheet under its hashed name`,
					);
					// The audit sees the page as a reader does: with its chart drawn.
					if ((await page.locator('canvas#chart').count()) > 0) {
						await page.waitForSelector('canvas#chart[data-drawn="true"]', { timeout: 15_000 });
					}
					for (const finding of await seriousAxeFindings(page)) {
						problems.push(
							`${label}: ${finding.impact} ${finding.rule} (${finding.help}): ${finding.targets.join(', ')}`,
						);
					}
					const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
					if (width > PHONE.width) problems.push(`${label}: ${width} px wide in a ${PHONE.width} px window`);
					// WCAG 2.5.8: a link standing alone, as the language and section links do, is at least 24 px tall.
					const small = (await page.evaluate(`[...document.querySelectorAll('footer a, nav a, header a')]
						.map((link) => [link.textContent.trim(), link.getBoundingClientRect().height])
						.filter(([, height]) => height < 24)`)) as [string, number][];
					for (const [text, height] of small) problems.push(`${label}: the link "${text}" is ${height} px tall`);
					await page.close();
				}
				for (const context of contexts.values()) await context.close();
			}
			await admin.click('section.public form:has(input[value="off"]) button');
			await adminContext.close();
			assert.deepEqual(problems, []);
		});
	});
}
