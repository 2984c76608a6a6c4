// The manage page as an admin uses it on a phone with JavaScript off: Chromium at 390 px, logged in through the
// stand-in's OAuth2, sends every form for real. What a form changed is what the slash commands answer next through
// the stand-in, what a command changed shows at the page's next load, and the audit channel says where each change
// came from. The key typed into the form shows up in no page, URL or log line. Under CI=true a missing Chromium
// fails; elsewhere it skips.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startWebStack, WEB_PEOPLE, type WebStack } from '../../scripts/demo/web-stack.js';
import { translator, type MessageKey } from '../../src/i18n/index.js';
import { describeSchedule } from '../../src/reports/describe-report.js';
import { describeFigure, describeRule } from '../../src/watch/describe-watch.js';
import { waitUntil } from '../links/wait-until.js';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from './browser-support.js';

const missing = chromiumMissing();
const PHONE = { width: 390, height: 844 };
const ADMIN = WEB_PEOPLE.admin;
const en = translator('en-US');

type CommandOption = { name: string; type: number; value: string | number };

if (missing) {
	if (process.env.CI === 'true') test('Chromium is installed in CI', () => assert.fail(missing));
	else test('the manage page in Chromium without JavaScript', (t) => t.skip(missing));
} else {
	describe('the manage page in Chromium without JavaScript, 390 px wide', () => {
		let stack: WebStack;
		let browser: LaunchedBrowser;
		let context: BrowserContext;
		let page: Page;
		/** Everything the bot logged, from its start. */
		const logs: string[] = [];
		/** Every page the browser was given, every URL it asked for and every redirect it was sent. */
		const pagesSeen: string[] = [];
		const urlsSeen: string[] = [];
		const bodiesRead: Promise<void>[] = [];
		let managePath: string;
		let auditChannel: string;
		let reportChannel: string;
		let alertChannel: string;
		let commandChannel: string;
		let voiceChannel: string;
		let readersRole: string;

		before(async () => {
			stack = await startWebStack({ logs });
			browser = await launchChromium();
			const fixture = stack.sandbox.guilds[0]!;
			[, auditChannel, reportChannel, alertChannel, commandChannel] = fixture.channelIds as [
				string,
				string,
				string,
				string,
				string,
			];
			voiceChannel = fixture.voiceChannelIds[0]!;
			// A role of its own to give `server-stats-role`: the stack already set its Stats Team role there.
			readersRole = stack.sandbox.addRole(stack.guildId, { name: 'Stats Readers', permissions: 0n }).id;
			managePath = `/servers/${stack.guildId}/manage`;

			context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
			context.on('request', (request) => urlsSeen.push(request.url()));
			context.on('response', (response) => {
				const location = response.headers()['location'];
				if (location) urlsSeen.push(location);
				if (response.request().resourceType() !== 'document') return;
				// A redirect has no body to read; every other answer to a navigation is a page.
				bodiesRead.push(
					response.text().then(
						(body) => void pagesSeen.push(body),
						() => undefined,
					),
				);
			});
			stack.sandbox.setOAuthUser(ADMIN);
			page = await context.newPage();
			await page.goto(`${stack.webUrl}/`);
			await page.click('a[href="/login"]');
			await page.waitForURL(`${stack.webUrl}/`);
			const manage = await page.goto(`${stack.webUrl}${managePath}`);
			assert.equal(manage?.status(), 200);
			await assertFits();
		});
		after(async () => {
			await context?.close();
			await browser?.close();
			await stack?.close();
		});

		/** The page as it stands fits the phone's width (no sideways scrolling); it and its URL are kept for the key search. */
		async function assertFits() {
			const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
			assert.ok(width <= PHONE.width, `${page.url()}: ${width} px wide in a ${PHONE.width} px window`);
			pagesSeen.push(await page.content());
			urlsSeen.push(page.url());
		}

		/**
		 * Sends the form of `button` the way a person does, and checks what comes back: a 303 to the manage page at
		 * the form's section, which says `outcome` in exactly one line and fits the window.
		 */
		async function submit(button: Locator, outcome: MessageKey, section: string) {
			const loaded = page.waitForEvent('load');
			const posted = page.waitForResponse((response) => response.request().method() === 'POST');
			await button.click();
			const post = await posted;
			assert.equal(post.status(), 303, `${post.url()} answered ${post.status()}`);
			await loaded;
			const url = new URL(page.url());
			assert.equal(url.pathname, managePath);
			assert.equal(url.hash, `#${section}`);
			const lines = page.locator('p.outcome');
			assert.equal(await lines.count(), 1, 'one outcome line');
			assert.equal((await lines.textContent())?.trim(), en(outcome));
			await assertFits();
		}

		async function reload(status = 200) {
			const response = await page.goto(`${stack.webUrl}${managePath}`);
			assert.equal(response?.status(), status);
			assert.equal(await page.locator('p.outcome').count(), 0, 'no outcome line without a form sent');
			await assertFits();
		}

		/** The admin's slash command through the stand-in, in the channel the command is typed in; its reply. */
		async function command(name: string, subcommand: string, options: CommandOption[] = []): Promise<string> {
			const reply = await stack.sandbox
				.dispatchCommand({
					name,
					subcommand,
					options,
					userId: ADMIN,
					guildId: stack.guildId,
					channelId: commandChannel,
				})
				.finalMessage();
			assert.ok(reply.isEphemeral, `/${name} ${subcommand} answers privately`);
			return reply.content;
		}

		const auditLines = () => stack.sandbox.channelMessages(auditChannel).map((message) => message.content);

		/** Exactly one audit line says `words`, from the page (`<@id> (dashboard)`) or from a command (`<@id>`). */
		async function audited(from: 'dashboard' | 'command', words: RegExp) {
			const dashboard = `<@${ADMIN}> (dashboard) `;
			const matching = () =>
				auditLines().filter(
					(line) =>
						(from === 'dashboard'
							? line.startsWith(dashboard)
							: line.startsWith(`<@${ADMIN}> `) && !line.startsWith(dashboard)) && words.test(line),
				);
			await waitUntil(() => matching().length > 0, 5000).catch(() =>
				assert.fail(`no audit line from the ${from} says ${words}; the channel has:\n${auditLines().join('\n')}`),
			);
			assert.equal(matching().length, 1, `one audit line from the ${from} says ${words}`);
		}

		it('sets the audit channel, then default-days and server-stats-role; /settings show answers them', async () => {
			await page.selectOption('#set-audit-channel', auditChannel);
			await submit(
				page.locator('#settings form:has(#set-default-days) button'),
				'web.manage.done.settingsSaved',
				'settings',
			);
			assert.equal(await page.locator('#set-audit-channel').inputValue(), auditChannel);

			await page.selectOption('#set-default-days', '7');
			await page.selectOption('#set-server-stats-role', readersRole);
			await submit(
				page.locator('#settings form:has(#set-default-days) button'),
				'web.manage.done.settingsSaved',
				'settings',
			);
			assert.equal(await page.locator('#set-default-days').inputValue(), '7');
			assert.equal(await page.locator('#set-server-stats-role').inputValue(), readersRole);

			const shown = (await command('settings', 'show')).split('\n');
			assert.ok(shown.includes(en('settings.show.defaultDays', { value: en('choices.days.7') })), shown.join('\n'));
			assert.ok(
				shown.includes(
					en('settings.show.serverStatsRole', { value: en('settings.value.role', { roleId: readersRole }) }),
				),
				shown.join('\n'),
			);
			assert.ok(
				shown.includes(
					en('settings.show.auditChannel', { value: en('settings.value.channel', { channelId: auditChannel }) }),
				),
				shown.join('\n'),
			);
			// One line naming both changes, each as /settings show words it.
			await audited(
				'dashboard',
				new RegExp(
					`changed the settings (?=.*\`default-days\`: 7 days)(?=.*\`server-stats-role\`: <@&${readersRole}>)`,
					'u',
				),
			);
		});

		it('adds a report, a stat channel and an alert; the list commands answer each; each row removes its own', async () => {
			// A report, as /report add would take it.
			const schedule = { every: 'weekly', hour: 17, timezone: 'Europe/Berlin', weekday: 'fri' } as const;
			await page.selectOption('#report-channel', reportChannel);
			await page.selectOption('#report-every', schedule.every);
			await page.selectOption('#report-hour', String(schedule.hour));
			await page.fill('#report-timezone', schedule.timezone);
			await page.selectOption('#report-weekday', schedule.weekday);
			await submit(page.locator('#reports form:has(#report-channel) button'), 'web.manage.done.reportAdded', 'reports');
			const described = describeSchedule(en, schedule);
			assert.match((await page.textContent('#reports ul.manage-list')) ?? '', new RegExp(escapeRegExp(described), 'u'));
			const reports = await command('report', 'list');
			assert.match(reports, new RegExp(`^<#${reportChannel}>: ${escapeRegExp(described)}; next <t:\\d+:\\w>$`, 'mu'));
			assert.equal(reports.match(/^<#/gmu)?.length, 1, reports);
			await audited('dashboard', new RegExp(`added a report for <#${reportChannel}>`, 'u'));

			// A stat channel: renamed at once, as /statchannel add does.
			await page.selectOption('#stat-channel', voiceChannel);
			await page.selectOption('#stat-figure', 'sends-all');
			await submit(
				page.locator('#stat-channels form:has(#stat-channel) button'),
				'web.manage.done.statChannelAdded',
				'stat-channels',
			);
			const figure = describeFigure(en, 'sends-all');
			const statChannels = await command('statchannel', 'list');
			assert.match(statChannels, new RegExp(`^<#${voiceChannel}>: ${figure}, named ${figure}: [\\d,]+$`, 'mu'));
			assert.equal(statChannels.match(/^<#/gmu)?.length, 1, statChannels);
			assert.match(stack.sandbox.channel(voiceChannel)?.name ?? '', new RegExp(`^${figure}: `, 'u'));
			await audited('dashboard', new RegExp(`made <#${voiceChannel}> a stat channel`, 'u'));

			// An alert: its id is the page's and the command's alike.
			await page.selectOption('#alert-kind', 'no-sends');
			await page.selectOption('#alert-channel', alertChannel);
			await page.fill('#alert-threshold', '6');
			await submit(page.locator('#alerts form:has(#alert-kind) button'), 'web.manage.done.alertAdded', 'alerts');
			const alertId = (await page.getAttribute('#alerts li input[name="id"]', 'value'))!;
			assert.match(alertId, /^[a-z0-9]+$/u);
			const rule = describeRule(en, 'en-US', { kind: 'no-sends', threshold: 6 });
			const alerts = await command('alert', 'list');
			assert.match(alerts, new RegExp(`^\`${alertId}\` ${rule}, in <#${alertChannel}>: `, 'mu'));
			assert.equal(alerts.match(/^`/gmu)?.length, 1, alerts);
			await audited('dashboard', new RegExp(`added alert \`${alertId}\``, 'u'));

			// Each row's own button, one after the other.
			await submit(
				page.locator(`#reports li:has(input[name="channel"][value="${reportChannel}"]) button`),
				'web.manage.done.reportRemoved',
				'reports',
			);
			await submit(
				page.locator(`#stat-channels li:has(input[name="channel"][value="${voiceChannel}"]) button`),
				'web.manage.done.statChannelRemoved',
				'stat-channels',
			);
			await submit(
				page.locator(`#alerts li:has(input[name="id"][value="${alertId}"]) button`),
				'web.manage.done.alertRemoved',
				'alerts',
			);
			assert.equal(await page.locator('ul.manage-list li').count(), 0, 'the page lists nothing');
			assert.equal(await command('report', 'list'), en('report.listEmpty'));
			assert.equal(await command('statchannel', 'list'), en('watch.statChannel.listEmpty'));
			assert.equal(await command('alert', 'list'), en('watch.alert.listEmpty'));
			await audited('dashboard', new RegExp(`removed the report for <#${reportChannel}>`, 'u'));
			await audited('dashboard', new RegExp(`removed the stat channel <#${voiceChannel}>`, 'u'));
			await audited('dashboard', new RegExp(`removed alert \`${alertId}\``, 'u'));
		});

		it('shows at its next load what /alert add, /report add and /settings set changed', async () => {
			const added = await command('alert', 'add', [
				{ name: 'kind', type: 3, value: 'failed-share' },
				{ name: 'channel', type: 7, value: alertChannel },
				{ name: 'threshold', type: 10, value: 25 },
			]);
			const alertId = /^Alert `([a-z0-9]+)` added/u.exec(added)?.[1];
			assert.ok(alertId, added);
			const reported = await command('report', 'add', [
				{ name: 'channel', type: 7, value: reportChannel },
				{ name: 'every', type: 3, value: 'daily' },
				{ name: 'hour', type: 4, value: 8 },
				{ name: 'timezone', type: 3, value: 'Asia/Tokyo' },
			]);
			assert.match(reported, new RegExp(`^Report added for <#${reportChannel}>`, 'u'));
			const changed = await command('settings', 'set', [{ name: 'default-metric', type: 3, value: 'joins' }]);
			assert.match(changed, /^Settings updated:/u);

			await reload();
			const alertRow = page.locator(`#alerts li:has(input[name="id"][value="${alertId}"])`);
			assert.equal(await alertRow.count(), 1, 'the alert is listed');
			const alertText = (await alertRow.textContent()) ?? '';
			assert.ok(alertText.includes(describeRule(en, 'en-US', { kind: 'failed-share', threshold: 25 })), alertText);
			assert.ok(alertText.includes(`#${stack.sandbox.channel(alertChannel)!.name}`), alertText);
			const reportRow = page.locator(`#reports li:has(input[name="channel"][value="${reportChannel}"])`);
			assert.equal(await reportRow.count(), 1, 'the report is listed');
			const reportText = (await reportRow.textContent()) ?? '';
			const schedule = describeSchedule(en, { every: 'daily', hour: 8, timezone: 'Asia/Tokyo', weekday: null });
			assert.ok(reportText.includes(schedule), reportText);
			assert.equal(await page.locator('#set-default-metric').inputValue(), 'joins');
			assert.equal(await page.locator('#set-default-metric option[selected]').getAttribute('value'), 'joins');

			await audited('command', new RegExp(`added alert \`${alertId}\``, 'u'));
			await audited('command', new RegExp(`added a report for <#${reportChannel}>`, 'u'));
			await audited('command', /changed the settings .*default-metric/su);
		});

		it('reads at a glance: code at body size, key facts labelled, every link, button and field at least 24 px tall', async () => {
			await command('alert', 'add', [
				{ name: 'kind', type: 3, value: 'no-sends' },
				{ name: 'channel', type: 7, value: alertChannel },
				{ name: 'threshold', type: 10, value: 24 },
			]);
			for (const locale of ['en-US', 'de', 'ja']) {
				const response = await page.goto(`${stack.webUrl}${managePath}?lang=${locale}`);
				assert.equal(response?.status(), 200);
				await assertFits();
				const looks = (await page.evaluate(`(() => {
					const style = (selector) => getComputedStyle(document.querySelector(selector));
					const px = (value) => Number.parseFloat(value);
					const small = [...document.querySelectorAll('main a, main button, main select, main input:not([type=hidden]), footer a')]
						.map((element) => [element.textContent.trim().slice(0, 40) || element.id, element.getBoundingClientRect().height])
						.filter(([, height]) => height < 24);
					return {
						code: px(style('#key dd code').fontSize),
						body: px(style('main p').fontSize),
						idCode: px(style('#alerts code').fontSize),
						idText: px(style('#alerts .row-aside').fontSize),
						label: [px(style('dl.facts dt').fontSize), Number(style('dl.facts dt').fontWeight), style('dl.facts dt').color],
						value: [px(style('dl.facts dd').fontSize), Number(style('dl.facts dd').fontWeight), style('dl.facts dd').color],
						small,
					};
				})()`)) as {
					code: number;
					body: number;
					idCode: number;
					idText: number;
					label: [number, number, string];
					value: [number, number, string];
					small: [string, number][];
				};
				assert.ok(looks.code >= looks.body * 0.9, `${locale}: code ${looks.code} px beside ${looks.body} px text`);
				assert.ok(looks.idCode >= looks.idText * 0.9, `${locale}: an id ${looks.idCode} px in ${looks.idText} px text`);
				assert.ok(looks.value[1] >= 600, `${locale}: a key fact's value is bold`);
				assert.ok(looks.label[1] < 600 && looks.label[0] < looks.value[0], `${locale}: its label smaller, not bold`);
				assert.notEqual(looks.label[2], looks.value[2], `${locale}: and in another colour`);
				assert.deepEqual(looks.small, [], `${locale}: targets under 24 px`);
			}
			// The alert's row: the rule first, then where and how, then its id under a label; its button on the right.
			const rule = describeRule(translator('ja'), 'ja', { kind: 'no-sends', threshold: 24 });
			const row = page.locator('#alerts li', { hasText: rule });
			const lines = await row.locator('span[id] > span').allTextContents();
			assert.equal(lines[0], rule);
			assert.match(lines.at(-1)!, /^アラート ID: [a-z0-9]{4}$/u);
			const [words, button] = [await row.locator('span[id]').boundingBox(), await row.locator('button').boundingBox()];
			assert.ok(words && button && button.x > words.x + words.width, 'the button beside the words, on the right');
			const id = (await row.locator('input[name="id"]').getAttribute('value'))!;
			await page.goto(`${stack.webUrl}${managePath}`);
			await submit(
				page.locator(`#alerts li:has(input[value="${id}"]) button`),
				'web.manage.done.alertRemoved',
				'alerts',
			);
		});

		it('sends no add form before a channel is chosen', async () => {
			const listed = await page.locator('ul.manage-list li').count();
			for (const [section, select] of [
				['reports', 'report-channel'],
				['stat-channels', 'stat-channel'],
				['alerts', 'alert-channel'],
			] as const) {
				assert.equal(await page.inputValue(`#${select}`), '', `${select} starts empty`);
				assert.equal(await page.getAttribute(`#${select} option:first-child`, 'value'), '');
				if (section === 'alerts') await page.fill('#alert-threshold', '6');
				let posted = false;
				const onRequest = (request: { method(): string }) => void (posted ||= request.method() === 'POST');
				page.on('request', onRequest);
				await page.locator(`#${section} form:has(#${select}) button`).click();
				await page.waitForTimeout(300);
				page.off('request', onRequest);
				assert.equal(posted, false, `#${section}'s add form is not sent without a channel`);
				assert.equal(await page.evaluate(`document.querySelector('#${select}').validity.valueMissing`), true);
			}
			assert.equal(await page.locator('ul.manage-list li').count(), listed, 'nothing added');
		});

		it('removes the key with /server-key remove, then sets the demo key and removes it through the form', async () => {
			const demo = await stack.bot.ctx.links.getServerKey(stack.guildId);
			assert.ok(demo, 'the stack links the demo account');
			const demoKey = demo.apiKey;
			const hint = demoKey.slice(-4);
			assert.equal(await command('server-key', 'remove'), en('serverKey.removed'));
			assert.equal(await command('server-key', 'status'), en('serverKey.none'));
			await audited('command', /removed the server's API key/u);

			// Without a key the page is the server page's 404, holding the form that gives the server one.
			await reload(404);
			assert.equal(await page.getAttribute('#key-input', 'type'), 'password');
			assert.equal(await page.getAttribute('#key-input', 'autocomplete'), 'off');
			assert.equal(await page.locator('#key form:has(input[name="action"][value="remove"])').count(), 0);
			await page.fill('#key-input', demoKey);
			await submit(page.locator('#key form:has(#key-input) button'), 'web.manage.done.keySet', 'key');
			assert.equal(await page.inputValue('#key-input'), '', 'the field comes back empty');
			const status = await command('server-key', 'status');
			assert.match(
				status,
				new RegExp(
					`^This server is linked to \\*\\*Pixel Community\\*\\* \\(key ending \`…${hint}\`\\), linked by <@${ADMIN}> `,
					'u',
				),
			);
			await audited('dashboard', new RegExp(`linked the server's API key \\(ending \`…${hint}\`\\)`, 'u'));

			await submit(
				page.locator('#key form:has(input[name="action"][value="remove"]) button'),
				'serverKey.removed',
				'key',
			);
			assert.equal(await command('server-key', 'status'), en('serverKey.none'));
			await audited('dashboard', /removed the server's API key/u);

			// The key went into the field and the POST body, and nowhere back out.
			await Promise.all(bodiesRead);
			assert.ok(pagesSeen.length > 10 && urlsSeen.length > 10, 'the pages and URLs were recorded');
			assert.ok(logs.length > 0, "the bot's log was recorded");
			for (const [where, texts] of [
				['a page', pagesSeen],
				['a URL', urlsSeen],
				["the bot's log", logs],
			] as const) {
				for (const text of texts) {
					assert.ok(!text.includes(demoKey), `the key in ${where}`);
					assert.ok(!text.includes(demoKey.slice(4, -4)), `most of the key in ${where}`);
				}
			}

			// The key back, from the keyless page's form, for the tests after this one.
			await page.fill('#key-input', demoKey);
			await submit(page.locator('#key form:has(#key-input) button'), 'web.manage.done.keySet', 'key');
		});

		it('resets the settings only once the box is ticked', async () => {
			await reload();
			assert.notEqual(await page.inputValue('#set-default-days'), '30', 'a setting to reset');
			let posted = false;
			const onRequest = (request: { method(): string }) => void (posted ||= request.method() === 'POST');
			page.on('request', onRequest);
			await page.locator('#settings form.reset button').click();
			await page.waitForTimeout(300);
			page.off('request', onRequest);
			assert.equal(posted, false, 'not sent without the box');
			await page.check('#reset-confirm');
			await submit(page.locator('#settings form.reset button'), 'settings.resetDone', 'settings');
			assert.equal(await page.inputValue('#set-default-days'), '30');
			assert.ok(
				(await command('settings', 'show')).includes(en('settings.show.defaultDays', { value: en('choices.days.30') })),
			);
			await audited('dashboard', /put all settings back to their defaults/u);
		});
	});
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
