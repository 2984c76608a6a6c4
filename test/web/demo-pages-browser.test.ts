// Every dashboard page the demo writes, opened from its saved file in Chromium as a German reader on a 390 px phone
// sees it: German has the longest headings (the goals table's "Untergrenze", "Obergrenze"), so a page that fits in
// German fits in every language. None may be wider than the window. Under CI=true a missing Chromium fails;
// elsewhere it skips.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it, test } from 'node:test';
import { setDashboardGoal } from '../../scripts/demo/goals.js';
import { writeDashboardPages } from '../../scripts/demo/web.js';
import { startWebStack, WEB_PEOPLE, type WebStack } from '../../scripts/demo/web-stack.js';
import { chromiumMissing, launchChromium, seriousAxeFindings, type LaunchedBrowser } from './browser-support.js';

const missing = chromiumMissing();
const PHONE = { width: 390, height: 844 };

if (missing) {
	if (process.env.CI === 'true') test('Chromium is installed in CI', () => assert.fail(missing));
	else test("the demo's dashboard pages at 390 px in German", (t) => t.skip(missing));
} else {
	describe("the demo's dashboard pages at 390 px in German", () => {
		const out = mkdtempSync(join(tmpdir(), 'demo-pages-'));
		let stack: WebStack;
		let browser: LaunchedBrowser;

		before(async () => {
			stack = await startWebStack({ guildName: 'Pixel Community' });
			// As `npm run demo` does: the server has its monthly goal, so its pages show the goals table.
			await setDashboardGoal(stack.bot.ctx, stack.guildId, WEB_PEOPLE.admin);
			await writeDashboardPages(stack, out);
			browser = await launchChromium();
		});
		after(async () => {
			await browser?.close();
			await stack?.close();
			rmSync(out, { recursive: true, force: true });
		});

		it('no page is wider than the window, the goals table among them, and axe-core finds nothing serious', async () => {
			const files = readdirSync(join(out, 'de')).filter((file) => file.endsWith('.html'));
			assert.ok(files.includes('server-admin.html') && files.includes('public.html'), files.join(', '));
			const context = await browser.newContext({ ...PHONE, locale: 'de' });
			const problems: string[] = [];
			let goalTables = 0;
			for (const file of files) {
				const page = await context.newPage();
				await page.goto(pathToFileURL(join(out, 'de', file)).href);
				goalTables += await page.locator('table.goals-table').count();
				const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
				if (width > PHONE.width) problems.push(`${file}: ${width} px`);
				for (const finding of await seriousAxeFindings(page)) {
					problems.push(`${file}: ${finding.impact} ${finding.rule}: ${finding.targets.join(', ')}`);
				}
				await page.close();
			}
			await context.close();
			assert.ok(goalTables >= 2, 'the server and public pages show the goals table');
			assert.deepEqual(problems, []);
		});

		it('on the phone the goals table shows the band under the forecast instead of two columns of its own', async () => {
			const context = await browser.newContext({ ...PHONE, locale: 'de' });
			const page = await context.newPage();
			await page.goto(pathToFileURL(join(out, 'de', 'server-admin.html')).href);
			assert.equal(await page.locator('table.goals-table thead th:visible').count(), 4, 'Ziel … Prognose');
			const forecast = await page.locator('table.goals-table tbody tr:first-child td').nth(2).innerText();
			assert.match(forecast, /^[\d.]+\n\([\d.]+–[\d.]+\)$/u);
			await context.close();
		});
	});
}
