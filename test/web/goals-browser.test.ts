// Goals on the dashboard in Chromium: the server page shows a progress bar per goal (an HTML <progress>, there without
// JavaScript too), and Chart.js draws the progress, the forecast and its band over the period's remaining days; the
// JSON view's `goals` give the same figures as the /stats embed's goal fields. Under CI=true a missing Chromium
// fails; elsewhere it skips.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startWebStack, WEB_PEOPLE, type WebStack } from '../../scripts/demo/web-stack.js';
import { setGoal } from '../../src/goals/goal-actions.js';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from './browser-support.js';

const missing = chromiumMissing();

interface GoalJson {
	metric: string;
	period: string;
	start: string;
	end: string;
	target: number;
	progress: number;
	forecast: { expected: number; low: number; high: number } | null;
}

interface GoalChart {
	labels: string[];
	datasets: { label: string; data: (number | null)[] }[];
	painted: number;
}

async function logIn(stack: WebStack, context: BrowserContext, userId: string): Promise<Page> {
	stack.sandbox.setOAuthUser(userId);
	const page = await context.newPage();
	await page.goto(`${stack.webUrl}/`);
	await page.click('a[href="/login"]');
	await page.waitForURL(`${stack.webUrl}/`);
	return page;
}

/** What Chart.js drew on the first goal's canvas, read from the page's own Chart instance. */
async function goalChart(page: Page): Promise<GoalChart> {
	await page.waitForSelector('canvas.goal-chart[data-drawn="true"]', { timeout: 15_000 });
	return page.evaluate(() => {
		type Canvas = {
			width: number;
			height: number;
			getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
		};
		const view = globalThis as unknown as {
			document: { querySelector(selector: string): Canvas };
			Chart: { getChart(canvas: Canvas): { data: GoalChart } };
		};
		const canvas = view.document.querySelector('canvas.goal-chart');
		const { labels, datasets } = view.Chart.getChart(canvas).data;
		const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
		let painted = 0;
		for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted += 1;
		return { labels, datasets: datasets.map((d) => ({ label: d.label, data: d.data })), painted };
	});
}

if (missing) {
	if (process.env.CI === 'true') test('Chromium is installed in CI', () => assert.fail(missing));
	else test('goals on the dashboard in Chromium', (t) => t.skip(missing));
} else {
	describe('goals on the dashboard in Chromium', () => {
		let stack: WebStack;
		let browser: LaunchedBrowser;

		before(async () => {
			stack = await startWebStack();
			browser = await launchChromium();
			const admin = { userId: WEB_PEOPLE.admin, canManageServer: true, roleIds: [], origin: 'discord' as const };
			const server = { scope: 'server', guildId: stack.guildId, guildLocale: 'en-US' };
			await setGoal(stack.bot.ctx, admin, { ...server, metric: 'sends', period: 'month', target: 20_000 });
			await setGoal(stack.bot.ctx, admin, { ...server, metric: 'joins', period: 'week', target: 150 });
		});
		after(async () => {
			await browser?.close();
			await stack?.close();
		});

		it('draws the progress bar and the band; the JSON goals equal the embed figures', async () => {
			const context = await browser.newContext();
			const problems: string[] = [];
			const page = await logIn(stack, context, WEB_PEOPLE.member);
			page.on('console', (message) => {
				if (message.type() === 'error') problems.push(message.text());
			});
			await page.goto(`${stack.webUrl}/servers/${stack.guildId}`);
			const bars = await page.$$eval('section.goals progress', (nodes) =>
				nodes.map((node) => ({ value: Number(node.getAttribute('value')), max: Number(node.getAttribute('max')) })),
			);
			const goals = (await page.evaluate(
				async (url) => (await fetch(url)).json(),
				`/api/servers/${stack.guildId}/stats`,
			)) as { goals: GoalJson[] };
			assert.deepEqual(
				goals.goals.map((goal) => [goal.metric, goal.period, goal.target]),
				[
					['sends', 'month', 20_000],
					['joins', 'week', 150],
				],
			);
			assert.deepEqual(
				bars,
				goals.goals.map((goal) => ({ value: Math.min(goal.progress, goal.target), max: goal.target })),
			);

			const chart = await goalChart(page);
			const sends = goals.goals[0]!;
			assert.ok(sends.forecast, 'a year of history: a forecast');
			const byLabel = (label: string) => chart.datasets.find((dataset) => dataset.label === label)!.data;
			const [progress, forecast, high, low] = ['Progress', 'Forecast', 'Forecast band', 'Forecast band '].map(byLabel);
			assert.equal(chart.labels[0], sends.start);
			assert.equal(chart.labels.at(-1), sends.end);
			const todayIndex = progress!.findLastIndex((value) => value !== null);
			assert.ok(Math.abs(progress![todayIndex]! - sends.progress) < 1e-6);
			// The band covers the period's remaining days, widening to the forecast's band at the end.
			for (let index = todayIndex; index < chart.labels.length; index += 1) {
				assert.ok(low![index]! <= forecast![index]! && forecast![index]! <= high![index]!, `day ${index}`);
			}
			assert.ok(Math.abs(forecast!.at(-1)! - sends.forecast.expected) < 1e-6);
			assert.ok(Math.abs(high!.at(-1)! - sends.forecast.high) < 1e-6);
			assert.ok(Math.abs(low!.at(-1)! - sends.forecast.low) < 1e-6);
			assert.ok(chart.painted > 1000, `the goal chart is drawn (${chart.painted} pixels)`);

			const row = await page.$$eval('table.goals-table tbody tr:first-child td', (cells) =>
				cells.map((c) => (c as unknown as { innerText: string }).innerText),
			);
			const count = (value: number) => Math.round(value).toLocaleString('en-US');
			assert.deepEqual(row, [
				count(sends.progress),
				count(sends.target),
				count(sends.forecast.expected),
				count(sends.forecast.low),
				count(sends.forecast.high),
			]);

			// The /stats embed of the same account: the same figures, as the field words them.
			const message = await stack.sandbox
				.dispatchCommand({
					name: 'stats',
					userId: WEB_PEOPLE.member,
					guildId: stack.guildId,
					options: [{ name: 'scope', type: 3, value: 'server' }],
				})
				.finalMessage();
			const fields = (message.embeds[0] as { fields: { name: string; value: string }[] }).fields;
			const field = fields.find((each) => each.name === 'Goal: sends this month');
			const percent = Math.floor((sends.progress / sends.target) * 100);
			assert.equal(
				field?.value,
				`${count(sends.progress)} / 20,000 (${percent} %) · on pace for ${count(sends.forecast.expected)} (${count(sends.forecast.low)}–${count(sends.forecast.high)})`,
			);
			assert.deepEqual(problems, []);
			await context.close();
		});

		it('without JavaScript the bar and the table are there', async () => {
			const context = await browser.newContext({ javaScriptEnabled: false });
			const page = await logIn(stack, context, WEB_PEOPLE.member);
			await page.goto(`${stack.webUrl}/servers/${stack.guildId}`);
			assert.equal(await page.locator('section.goals progress').count(), 2);
			assert.equal(await page.locator('table.goals-table tbody tr').count(), 2);
			await context.close();
		});
	});
}
