// The manage page across real processes (docs: "Managing a server from the dashboard"): two `npm run web` on one
// Redis and a bot started like `npm start`, against the Discord stand-in and the bundled stats service. The server
// key is set on one dashboard, an alert added on the other, the first lists it at once, and the bot's first alert
// round evaluates it and posts the firing once; the audit channel has the `(dashboard)` line.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { createClient } from '@redis/client';
import type Keyv from 'keyv';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { openStatsStore, startStatsServer, type StatsEvent } from '../../src/service/index.js';
import { SnapshotCache } from '../../src/stats-api/cache.js';
import {
	freePort,
	runNode as run,
	startCommandArgs,
	until,
	waitForHealth,
	type NodeProcess,
} from '../app/bot-process.js';
import { Visitor } from '../../scripts/demo/web.js';
import { sharedStores, uniqueSnowflake, usable } from '../discord/shared-stores.js';

const WEB_MAIN = fileURLToPath(new URL('../../src/app/web-main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const MANAGE_GUILD = 1n << 5n;
const DAY_MS = 86_400_000;
/** sends-drop compares yesterday with the same weekday a week before: 100 sends then, 10 yesterday, a 90 % drop. */
const THRESHOLD = 50;
const STOP_MS = 10_000;

type Running = NodeProcess;

/** SIGTERM, then SIGKILL past STOP_MS: whatever failed, no process outlives the test. */
async function stop(process: Running): Promise<number | null> {
	if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGTERM');
	const timer = setTimeout(() => process.child.kill('SIGKILL'), STOP_MS);
	try {
		return await process.exited;
	} finally {
		clearTimeout(timer);
	}
}

/** The day `daysAgo` before today (UTC), at noon. */
const noonOf = (daysAgo: number) => Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS + DAY_MS / 2;
const sends = (count: number, at: number): StatsEvent[] =>
	Array.from({ length: count }, (_, i) => ({ type: 'send', ok: true, at: at + i * 1000 }));

const assertBack = (response: Response, guildId: string, outcome: string, section: string) => {
	assert.equal(response.status, 303, `${outcome}: ${response.status}`);
	assert.equal(response.headers.get('location'), `/servers/${guildId}/manage?done=${outcome}#${section}`);
};

/** The store entries this run wrote: the processes take no namespace prefix, so each is named by the run's ids. */
async function removeRun(
	url: string,
	run: { guildId: string; accountName: string; cacheKey: string; sessions: string[] },
) {
	const client = createClient({ url });
	await client.connect();
	try {
		const keys = new Set([
			`history::${historyAccountId(run.accountName)}`,
			`stats-cache::${run.cacheKey}`,
			...run.sessions.map((id) => `web::session:${createHash('sha256').update(id).digest('base64url')}`),
		]);
		for (const pattern of [`*${run.guildId}*`, `*${run.cacheKey}*`]) {
			for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
				for (const key of batch) keys.add(key);
			}
		}
		await client.del([...keys]);
	} finally {
		client.destroy();
	}
}

const redis = (await sharedStores()).find((store) => store.name === 'redis')!;

describe('the manage page with npm run web processes and a bot process', () => {
	if (!usable(redis, 'an alert added on the dashboard is evaluated by the bot process')) return;

	it('an alert added through one dashboard process is listed by the other and fired once by the bot', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'adstats-manage-processes-'));
		const admin = uniqueSnowflake('35');
		const accountName = `Manage_${admin}`;
		const linkSecret = randomBytes(32);
		const serviceStore = openStatsStore(join(dir, 'service.sqlite'));
		const { apiKey } = serviceStore.createAccount(accountName);
		serviceStore.importEvents(accountName, [...sends(100, noonOf(8)), ...sends(10, noonOf(1))]);
		const service = await startStatsServer({ store: serviceStore, port: 0, rateLimitPerMinute: 0 });
		const sandbox: DiscordSandbox = await startDiscordSandbox({ guildCount: 1 });
		const guildId = sandbox.guildIds[0]!;
		const [auditChannel, alertChannel] = sandbox.guilds[0]!.channelIds.slice(1, 3) as [string, string];
		const managers = sandbox.addRole(guildId, { name: 'Managers', permissions: MANAGE_GUILD });
		sandbox.setMember(guildId, admin, { roles: [managers.id] });
		sandbox.setOAuthUser(admin, { username: 'manager', globalName: 'Manager' });

		const [portA, portB] = [await freePort(), await freePort()];
		const [urlA, urlB] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
		const env = {
			DISCORD_TOKEN: sandbox.token,
			DISCORD_APPLICATION_ID: sandbox.applicationId,
			DISCORD_API_URL: sandbox.apiUrl,
			STATS_API_BASE_URL: service.url,
			STORE_URL: redis.url,
			LINK_SECRET: linkSecret.toString('hex'),
			CHART_RENDERER: 'none',
			HISTORY_SAMPLING: 'off',
			LOG_LEVEL: 'info',
		};
		// The dashboards run the alert watcher too (every process may): their next round is at midnight UTC, so the
		// first evaluation after the add is the bot's.
		const webEnv = {
			...env,
			WEB_PUBLIC_URL: urlA,
			DISCORD_CLIENT_SECRET: sandbox.clientSecret,
			DISCORD_OAUTH_URL: sandbox.oauthAuthorizeUrl,
			ALERT_CHECK_MINUTES: '1440',
		};
		const processes: Running[] = [];
		const browser = new Visitor(urlA);
		try {
			const a = run(['--import', TSX, WEB_MAIN], { ...webEnv, WEB_PORT: String(portA) }, dir);
			const b = run(['--import', TSX, WEB_MAIN], { ...webEnv, WEB_PORT: String(portB) }, dir);
			processes.push(a, b);
			await Promise.all([waitForHealth(urlA, a), waitForHealth(urlB, b)]);
			await browser.logIn();
			const manage = `/servers/${guildId}/manage`;
			assertBack(await browser.post(`/servers/${guildId}/key`, { key: apiKey }), guildId, 'key-set', 'key');
			// Both have shown the page before the changes: neither may answer from what it read then.
			assert.match(await browser.page(manage, urlA), /No alerts yet\. Add one below\./u);
			assert.match(await browser.page(manage, urlB), /No alerts yet\. Add one below\./u);
			assertBack(
				await browser.post(`/servers/${guildId}/settings`, { 'audit-channel': auditChannel }),
				guildId,
				'settings-saved',
				'settings',
			);
			assertBack(
				await browser.post(
					`/servers/${guildId}/alerts`,
					{
						kind: 'sends-drop',
						channel: alertChannel,
						threshold: String(THRESHOLD),
					},
					urlB,
				),
				guildId,
				'alert-added',
				'alerts',
			);

			const onA = await browser.page(manage, urlA);
			const alerts = /<section id="alerts"[\s\S]*?<\/section>/u.exec(onA)?.[0] ?? '';
			const ids = [...alerts.matchAll(/<code>([0-9a-z]{4})<\/code>/gu)].map((match) => match[1]!);
			assert.equal(ids.length, 1, `process A lists the alert added on B at once:\n${alerts}`);
			const id = ids[0]!;
			assert.match(alerts, new RegExp(`${THRESHOLD} % or more below`, 'u'), 'with its rule');
			assert.match(onA, new RegExp(accountName, 'u'), 'and the key set on A');

			const audit = sandbox.channelMessages(auditChannel).map((message) => message.content);
			const added = audit.filter((line) => line.startsWith(`<@${admin}> (dashboard) added alert \`${id}\``));
			assert.equal(added.length, 1, `the audit channel: ${JSON.stringify(audit)}`);
			assert.ok(added[0]!.includes(`<#${alertChannel}>`));
			assert.deepEqual(sandbox.channelMessages(alertChannel), [], 'nothing posted before the bot runs');

			// The alert watcher's first round runs as the bot starts, then every 5 minutes.
			const bot = run(startCommandArgs(), { ...env, ALERT_CHECK_MINUTES: '5' }, dir);
			processes.push(bot);
			await until(
				() => sandbox.channelMessages(alertChannel).length > 0 || bot.child.exitCode !== null,
				'the firing post',
				20_000,
			).catch((error: unknown) => {
				throw new Error(`${String(error)}; the bot's output:\n${JSON.stringify(bot.output())}`);
			});
			assert.equal(await stop(bot), 0, JSON.stringify(bot.output()));
			assert.match(bot.output().stdout, new RegExp(`"alert":"${id}".*"msg":"alert posted"`, 'u'), 'the bot posted it');

			const posts = sandbox.channelMessages(alertChannel);
			assert.equal(posts.length, 1, 'one post for one firing');
			const embed = posts[0]!.embeds[0] as { description?: string; fields?: { name: string; value: string }[] };
			assert.equal(embed.fields?.find((field) => field.name === 'Threshold')?.value, `${THRESHOLD} %`);
			assert.match(embed.description ?? '', new RegExp(`90 % below .*\\(threshold ${THRESHOLD} %\\)`, 'u'));
			assert.deepEqual((embed as { footer?: { text: string } }).footer, { text: id });

			assert.equal((await browser.post('/logout', {}, urlB)).status, 303, 'logged out');
			for (const web of [a, b]) assert.equal(await stop(web), 0, JSON.stringify(web.output()));
			sandbox.assertNoViolations();
		} finally {
			await Promise.all(processes.map(stop));
			const session = browser.sessionCookie().value;
			const cacheKey = new SnapshotCache({} as Keyv, linkSecret).keyFor(apiKey);
			await removeRun(redis.url, { guildId, accountName, cacheKey, sessions: session ? [session] : [] });
			await sandbox.close();
			await service.close();
			serviceStore.close();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
