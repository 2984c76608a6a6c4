// Notes on the dashboard's chart in Chromium: the annotation plugin served beside chart.js registers itself on the
// page's one Chart, the server page's chart draws the note as a line with its text, and a note holding `<script>` is
// only text (no dialog opens). Under CI=true a missing Chromium fails; elsewhere it skips.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startWebStack, WEB_PEOPLE, type WebStack } from '../../scripts/demo/web-stack.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { addNote } from '../../src/notes/note-actions.js';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from './browser-support.js';

const missing = chromiumMissing();
const TEXT = '<script>alert(1)</script> campaign';

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
	else test('notes on the dashboard in Chromium', (t) => t.skip(missing));
} else {
	describe('notes on the dashboard in Chromium', () => {
		let stack: WebStack;
		let browser: LaunchedBrowser;
		const date = addDays(utcDateOf(Date.now()), -3);

		before(async () => {
			stack = await startWebStack();
			browser = await launchChromium();
			const admin = { userId: WEB_PEOPLE.admin, canManageServer: true, roleIds: [], origin: 'dashboard' as const };
			await addNote(stack.bot.ctx, admin, { scope: 'server', guildId: stack.guildId, date, text: TEXT });
		});
		after(async () => {
			await browser?.close();
			await stack?.close();
		});

		it('the server page draws the note on its chart and lists it as text', async () => {
			const context = await browser.newContext();
			const problems: string[] = [];
			let dialogs = 0;
			const page = await logIn(stack, context, WEB_PEOPLE.member);
			page.on('console', (message) => {
				if (message.type() === 'error') problems.push(message.text());
			});
			page.on('dialog', (dialog) => {
				dialogs += 1;
				void dialog.dismiss();
			});
			await page.goto(`${stack.webUrl}/servers/${stack.guildId}?days=7`);
			await page.waitForSelector('canvas#chart[data-drawn="true"]', { timeout: 15_000 });
			const drawn = await page.evaluate(() => {
				type Canvas = object;
				const view = globalThis as unknown as {
					document: { querySelector(selector: string): Canvas };
					Chart: {
						registry: { plugins: { get(id: string): unknown } };
						getChart(canvas: Canvas): {
							options: { plugins: { annotation?: { annotations: Record<string, { label: { content: string } }> } } };
						};
					};
				};
				const chart = view.Chart.getChart(view.document.querySelector('canvas#chart'));
				const annotations = Object.values(chart.options.plugins.annotation?.annotations ?? {});
				return {
					registered: view.Chart.registry.plugins.get('annotation') !== undefined,
					labels: annotations.map((annotation) => annotation.label.content),
				};
			});
			assert.ok(drawn.registered, 'the annotation plugin registered itself on the page');
			assert.deepEqual(drawn.labels, ['<script>alert(1)</scrip…']);
			const listed = await page.$$eval('section.day-notes li', (items) =>
				items.map((item) => (item as unknown as { textContent: string }).textContent.replace(/\s+/gu, ' ').trim()),
			);
			assert.deepEqual(listed, [`${date} ${TEXT}`]);
			assert.equal(dialogs, 0, 'the note is text, never a script');
			assert.deepEqual(problems, []);
			await context.close();
		});
	});
}
