// `npm run demo`: the whole product offline. The bundled stats service with demo data, the local
// Discord stand-in and the real bot; plays the member flows once per language and writes what
// Discord would show: demo-output/<locale>/ (JSON, PNGs, the CSV export, an HTML page), and the
// dashboard's pages in demo-output/web/ (the admin's manage page after changes through its forms among them).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { startBot } from '../src/app/start-bot.js';
import { loadConfig } from '../src/config.js';
import { LOCALES, type Locale } from '../src/i18n/index.js';
import { buildReportPost, reportNonce } from '../src/reports/build-report-post.js';
import { parseReportRecord, reportKey } from '../src/reports/report-record.js';
import { botGuildApi, createBotRest } from '../src/discord/bot-rest.js';
import { generateDemoEvents, openStatsStore, seedDemoAccount, startStatsServer } from '../src/service/index.js';
import { registerBotCommands } from '../test/app/harness.js';
import { startDiscordSandbox, type InteractionHandle, type SandboxMessage } from '../sandbox/index.js';
import { startFaultyUpstream, type UpstreamMode } from './demo/faulty-upstream.js';
import { writeEmbeds } from './demo/embeds.js';
import { renderDemoPage, renderLanguageIndex, type DemoStep } from './demo/html-page.js';
import { seedDemoHistory } from './demo/seed-history.js';
import { playDigestFlow } from './demo/digest.js';
import { playWatchFlows } from './demo/watch.js';
import { playBoardFlow } from './demo/board.js';
import { playGoalFlow, setDashboardGoal } from './demo/goals.js';
import { addDashboardNotes, playNoteFlow } from './demo/notes.js';
import { playRangeStep, RANGE_DEMO_LOCALES } from './demo/range.js';
import { openScreenshotTab, screenshotDashboardPages } from './demo/screenshots.js';
import { writeDashboardPages } from './demo/web.js';
import { freePort, offlineBotEnv, seatDashboardPeople, WEB_PEOPLE } from './demo/web-stack.js';

// DEMO_OUTPUT_DIR lets the demo's own test write elsewhere.
const OUTPUT_DIR = resolve(process.env.DEMO_OUTPUT_DIR ?? 'demo-output');
const MANAGE_SERVER = (1n << 5n).toString();
const HISTORY_DAYS = 120;
const NOW = new Date();

const work = mkdtempSync(join(tmpdir(), 'adstats-demo-'));
rmSync(OUTPUT_DIR, { recursive: true, force: true });

const store = openStatsStore(join(work, 'service.sqlite'));
const accounts = {
	member: { name: 'Nova Ads', seed: 7 },
	server: { name: 'Pixel Community', seed: 11 },
};
const memberAccount = seedDemoAccount(store, { ...accounts.member, days: HISTORY_DAYS, now: NOW });
const serverAccount = seedDemoAccount(store, { ...accounts.server, days: HISTORY_DAYS, now: NOW });
const service = await startStatsServer({ store, port: 0 });
const upstream = await startFaultyUpstream(service.url);
// Each language plays on a server of its own, so the passes run at once; the dashboard's people have one more.
const sandbox = await startDiscordSandbox({ guildCount: LOCALES.length + 1 });
type DemoGuild = (typeof sandbox.guilds)[number];
const dashboardGuildId = sandbox.guilds[LOCALES.length]!.id;
const logLines: string[] = [];
/**
 * How old the snapshot the failure steps meet is. They must reach the endpoint, not a snapshot cached a
 * moment before (STATS_CACHE_TTL_SECONDS is 1 s), and the unreachable step shows its last snapshot's age.
 * Rather than sleep, the stats client's clock runs this far behind while the member flows run, so what they
 * fetch is stamped that much earlier, and catches up for the failure steps: their snapshot is then as old
 * as after a real wait of this length (the former four sleeps of 1.1 s), in the stats cache and the embed alike.
 */
const SNAPSHOT_AGE_MS = 4_500;
let statsClockLagMs = SNAPSHOT_AGE_MS;
const dashboardPort = await freePort();
const bot = await (async () => {
	const config = loadConfig({
		// The dashboard runs in the bot's process, as `npm start` runs it with WEB_PORT.
		...offlineBotEnv(sandbox, { statsApiUrl: upstream.url, storeFile: join(work, 'bot.sqlite'), dashboardPort }),
		// Short, so the failure steps meet the endpoint instead of a cached snapshot.
		STATS_CACHE_TTL_SECONDS: '1',
	});
	const logs = new Writable({
		write(chunk: Buffer, _encoding, done) {
			logLines.push(chunk.toString());
			done();
		},
	});
	// Registration and start-up overlap: the commands are needed only once the first step is dispatched.
	const [registered, started] = await Promise.all([
		registerBotCommands(sandbox),
		startBot(config, { logDestination: logs, now: () => Date.now() - statsClockLagMs }),
	]);
	console.log(`Registered ${registered.map((command) => `/${command.name}`).join(', ')}`);
	return started;
})();

// The chart worker loads Chart.js, canvas and the fonts on first use: started now, it does so on the other core
// while the main thread folds the history and plays the first steps (before linking, /link), which draw no chart.
// A failure here shows again, where it matters, on the first real chart.
const warmingCharts = bot.ctx.renderer
	.render({ type: 'bar', data: { labels: [], datasets: [] } }, { width: 16, height: 16 })
	.catch(() => null);

/**
 * The bot has kept the accounts' history since they started advertising (as its daily sampler would).
 * The dashboard's people keep both accounts linked, so no pass's /unlink forgets them.
 */
async function seedHistories(): Promise<void> {
	for (const account of Object.values(accounts)) {
		await seedDemoHistory(bot.ctx.stores.history, {
			user: account.name,
			events: generateDemoEvents({ days: HISTORY_DAYS, seed: account.seed, now: NOW }),
			now: NOW,
			days: HISTORY_DAYS - 1,
			historyDays: bot.ctx.config.historyDays,
		});
	}
}

const FAILURES: [UpstreamMode, string][] = [
	['rejected', 'When the key is rejected'],
	['unreleased', 'Before the V2 update'],
	['busy', 'When the stats service is busy'],
	['down', 'When it is unreachable: the last snapshot, marked stale'],
];

interface DemoPass {
	locale: Locale;
	steps: DemoStep[];
	charts(): number;
	/** Everything up to the failures: the working flows, on the pass's own server. */
	playMemberFlows(): Promise<void>;
	/** One failure of FAILURES, met by /stats while the upstream is in that mode. */
	meetFailure(title: string): Promise<void>;
	/** /unlink, then the pass's page. */
	finish(): Promise<void>;
}

/** One language's pass: its own server and members, so every step (before linking included) is shown. */
function openPass(locale: Locale, index: number, guild: DemoGuild): DemoPass {
	const dir = join(OUTPUT_DIR, locale);
	mkdirSync(join(dir, 'replies'), { recursive: true });
	mkdirSync(join(dir, 'files'), { recursive: true });
	const member = `4000000000000${String(index).padStart(2, '0')}01`;
	const admin = `4000000000000${String(index).padStart(2, '0')}02`;
	const where = { locale, guildLocale: locale, guildId: guild.id };
	const steps: DemoStep[] = [];
	let chartCount = 0;
	/** A role of the pass's server (not @everyone, not the bot's own). */
	const statsTeamRole = (guild.roles()[2] as { id: string }).id;
	const publicMessages = () => sandbox.channelMessages(guild.defaultChannelId);

	const record = (title: string, command: string, message: SandboxMessage): void => {
		const slug = `${String(steps.length + 1).padStart(2, '0')}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
		const images: Record<string, string> = {};
		const files: Record<string, string> = {};
		for (const file of message.files) {
			const path = `files/${slug}-${file.name}`;
			writeFileSync(join(dir, path), file.bytes);
			if (file.name.endsWith('.png')) {
				chartCount += 1;
				images[file.name] = path;
			} else files[file.name] = path;
		}
		const { files: _files, ...body } = message;
		writeFileSync(join(dir, 'replies', `${slug}.json`), `${JSON.stringify(body, null, 2)}\n`);
		const buttons = JSON.stringify(message.components).match(/"label":"([^"]+)"/g) ?? [];
		steps.push({
			title,
			command,
			isPrivate: message.isEphemeral,
			content: message.content,
			embeds: message.embeds,
			buttons: buttons.map((label) => label.slice(9, -1)),
			images,
			files,
		});
		if (locale === 'en-US')
			console.log(`  ${message.isEphemeral ? 'private' : 'public '}  ${command}: ${summarize(message)}`);
	};
	const run = (options: Parameters<typeof sandbox.dispatchCommand>[0]) =>
		sandbox.dispatchCommand({ ...where, ...options }).finalMessage(20_000);
	const submitModal = async (command: InteractionHandle, key: string, userId: string, permissions?: string) => {
		const modal = await command.firstResponse();
		if (modal.type !== 9) throw new Error('expected a modal');
		return sandbox
			.dispatchModalSubmit({
				...where,
				customId: String(modal.data.custom_id),
				fields: { 'api-key': key },
				userId,
				permissions,
			})
			.finalMessage(20_000);
	};
	const waitForPublicPost = async (handle: InteractionHandle) => {
		const before = publicMessages().length;
		await handle.waitFor((h) => h.followUps.some((f) => f.status < 300), 20_000);
		return publicMessages()
			.slice(before - 1)
			.at(-1)!;
	};

	const playMemberFlows = async () => {
		record('Stats before linking', '/stats', await run({ name: 'stats', userId: member }));
		record(
			'Link a key with the form',
			'/link',
			await submitModal(
				sandbox.dispatchCommand({ ...where, name: 'link', userId: member }),
				memberAccount.apiKey,
				member,
			),
		);
		const privateStats = await run({ name: 'stats', userId: member });
		record('Private stats with chart', '/stats', privateStats);
		record(
			'90 days from the history',
			'/stats days:90',
			await run({ name: 'stats', userId: member, options: [{ name: 'days', type: 4, value: 90 }] }),
		);
		record(
			'Joins per day',
			'/stats metric:joins',
			await run({ name: 'stats', userId: member, options: [{ name: 'metric', type: 3, value: 'joins' }] }),
		);
		record(
			'Conversion over 180 days',
			'/stats days:180 metric:conversion',
			await run({
				name: 'stats',
				userId: member,
				options: [
					{ name: 'days', type: 4, value: 180 },
					{ name: 'metric', type: 3, value: 'conversion' },
				],
			}),
		);
		if (RANGE_DEMO_LOCALES.includes(locale)) {
			await playRangeStep({ member, now: Date.now() - statsClockLagMs, run, record });
		}

		const shareId =
			JSON.stringify(privateStats.components).match(/stats:share:[^"]+/)?.[0] ?? `stats:share:${member}:me:30:sends`;
		const share = sandbox.dispatchButton({ ...where, customId: shareId, userId: member, messageId: privateStats.id });
		record('Share button: public copy', 'Share in channel', await waitForPublicPost(share));
		const shared = sandbox.dispatchCommand({
			...where,
			name: 'stats',
			userId: member,
			options: [
				{ name: 'days', type: 4, value: 14 },
				{ name: 'share', type: 5, value: true },
			],
		});
		record('Shared 14-day chart', '/stats days:14 share:true', await waitForPublicPost(shared));
		record(
			'Export as CSV',
			'/export days:30',
			await run({ name: 'export', userId: member, options: [{ name: 'days', type: 4, value: 30 }] }),
		);

		record(
			'Server key without Manage Server',
			'/server-key set',
			await run({ name: 'server-key', subcommand: 'set', userId: member }),
		);
		record(
			'Server key set by an admin',
			'/server-key set',
			await submitModal(
				sandbox.dispatchCommand({
					...where,
					name: 'server-key',
					subcommand: 'set',
					userId: admin,
					permissions: MANAGE_SERVER,
				}),
				serverAccount.apiKey,
				admin,
				MANAGE_SERVER,
			),
		);
		record(
			'Server key status',
			'/server-key status',
			await run({ name: 'server-key', subcommand: 'status', userId: admin, permissions: MANAGE_SERVER }),
		);
		await playGoalFlow({ admin, manageServer: MANAGE_SERVER, run, record });
		await playNoteFlow({ locale, now: NOW, admin, manageServer: MANAGE_SERVER, run, record });
		record(
			"The server's stats",
			'/stats scope:server days:7',
			await run({
				name: 'stats',
				userId: admin,
				options: [
					{ name: 'scope', type: 3, value: 'server' },
					{ name: 'days', type: 4, value: 7 },
				],
			}),
		);

		record(
			'Settings: only a team sees the server figures',
			'/settings set server-stats-role:@Stats team',
			await run({
				name: 'settings',
				subcommand: 'set',
				userId: admin,
				permissions: MANAGE_SERVER,
				options: [{ name: 'server-stats-role', type: 8, value: statsTeamRole }],
			}),
		);
		record(
			'Settings',
			'/settings show',
			await run({ name: 'settings', subcommand: 'show', userId: admin, permissions: MANAGE_SERVER }),
		);
		record(
			'A member without the role',
			'/stats scope:server',
			await run({ name: 'stats', userId: member, options: [{ name: 'scope', type: 3, value: 'server' }] }),
		);
		record(
			'Weekly report: the preview',
			'/report add every:weekly',
			await run({
				name: 'report',
				subcommand: 'add',
				userId: admin,
				permissions: MANAGE_SERVER,
				options: [
					{ name: 'channel', type: 7, value: guild.defaultChannelId },
					{ name: 'every', type: 3, value: 'weekly' },
					{ name: 'hour', type: 4, value: 9 },
				],
			}),
		);
		record('Weekly report: the post', 'scheduled report', await postReportNow(guild));
		record(
			'Report list',
			'/report list',
			await run({ name: 'report', subcommand: 'list', userId: admin, permissions: MANAGE_SERVER }),
		);
		await playWatchFlows(
			{
				ctx: bot.ctx,
				sandbox,
				guildId: guild.id,
				statChannelIds: [...guild.voiceChannelIds, ...guild.categoryIds],
				alertChannelId: guild.defaultChannelId,
				admin,
				manageServer: MANAGE_SERVER,
				run,
				record,
			},
			index,
		);
		await playDigestFlow({ ctx: bot.ctx, sandbox, member, locale, run, record });
		await playBoardFlow({
			ctx: bot.ctx,
			sandbox,
			guildId: guild.id,
			channelId: guild.defaultChannelId,
			admin,
			manageServer: MANAGE_SERVER,
			run,
			record,
		});
		// What the bot holds about the member, by kind, and all of it as a JSON file (written under files/).
		record(
			'What the bot holds about you',
			'/privacy show',
			await run({ name: 'privacy', subcommand: 'show', userId: member }),
		);
		record(
			'Your data as a file',
			'/privacy export',
			await run({ name: 'privacy', subcommand: 'export', userId: member }),
		);
	};

	return {
		locale,
		steps,
		charts: () => chartCount,
		playMemberFlows,
		meetFailure: async (title) => record(title, '/stats', await run({ name: 'stats', userId: member })),
		finish: async () => {
			record('Unlink', '/unlink', await run({ name: 'unlink', userId: member }));
			writeFileSync(join(dir, 'index.html'), renderDemoPage(steps, locale));
		},
	};
}

/** Posts the server's weekly report now, exactly as the scheduler does at its due time. */
async function postReportNow(guild: DemoGuild): Promise<SandboxMessage> {
	const stored = parseReportRecord(await bot.ctx.stores.reports.get(reportKey(guild.id, guild.defaultChannelId)));
	if (!stored) throw new Error('the report was not stored');
	const post = await buildReportPost(bot.ctx, stored);
	const before = sandbox.channelMessages(guild.defaultChannelId).length;
	const guildApi = botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }));
	await guildApi.postMessage(guild.defaultChannelId, post, { nonce: reportNonce(stored, `demo-${Date.now()}`) });
	return sandbox.channelMessages(guild.defaultChannelId).slice(before).at(-1)!;
}

/** The dashboard shows a key by its last four characters at most: no saved page may hold one. */
function assertNoKeyIn(dir: string, keys: string[]): void {
	for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'))) {
		const page = readFileSync(join(dir, file), 'utf8');
		if (keys.some((key) => page.includes(key))) throw new Error(`web/${file} holds an API key`);
	}
}

function summarize(message: SandboxMessage): string {
	const parts = [];
	if (message.content) parts.push(message.content.split('\n')[0]!.slice(0, 90));
	if (message.embeds.length) parts.push(`${message.embeds.length} embed`);
	if (message.files.length) parts.push(`${message.files.map((f) => `${f.name} (${f.bytes.length} B)`).join(', ')}`);
	return parts.join(' | ');
}

try {
	await seedHistories();
	await seatDashboardPeople(sandbox, bot.ctx, {
		guildId: dashboardGuildId,
		guildName: accounts.server.name,
		memberKey: memberAccount.apiKey,
		serverKey: serverAccount.apiKey,
	});
	await setDashboardGoal(bot.ctx, dashboardGuildId, WEB_PEOPLE.admin);
	await addDashboardNotes(bot.ctx, dashboardGuildId, WEB_PEOPLE.admin, NOW);
	// The dashboard's pages are written while the member flows play; the screenshots are taken after them.
	const dashboardOut = join(OUTPUT_DIR, 'web');
	const dashboardPages = writeDashboardPages(
		{ sandbox, webUrl: `http://127.0.0.1:${dashboardPort}`, guildId: dashboardGuildId },
		dashboardOut,
	).then(
		(line) => ({ line }),
		(error: unknown) => ({ error }),
	);
	console.log('Playing the member flows (shown for en-US; every language is recorded at once):');
	const started = performance.now();
	const passes = LOCALES.map((locale, index) => openPass(locale, index, sandbox.guilds[index]!));
	await Promise.all(passes.map(async (pass) => pass.playMemberFlows()));
	// The failures last, one at a time for every pass together: the upstream's mode holds for all of them.
	statsClockLagMs = 0;
	for (const [mode, title] of FAILURES) {
		upstream.mode = mode;
		try {
			await Promise.all(passes.map(async (pass) => pass.meetFailure(title)));
		} finally {
			upstream.mode = 'ok';
		}
	}
	let stepCount = 0;
	let chartCount = 0;
	for (const pass of passes) {
		await pass.finish();
		stepCount += pass.steps.length;
		chartCount += pass.charts();
		console.log(
			`${pass.locale}: ${pass.steps.length} replies, ${pass.charts()} charts -> ${join(OUTPUT_DIR, pass.locale)}`,
		);
	}
	const seconds = ((performance.now() - started) / 1000).toFixed(1);
	await warmingCharts;
	sandbox.assertNoViolations();
	writeFileSync(join(OUTPUT_DIR, 'index.html'), renderLanguageIndex(LOCALES));
	console.log(
		`\nDone: ${stepCount} replies in ${LOCALES.length} languages, ${chartCount} chart PNGs in ${seconds} s, every request valid against Discord's API description.`,
	);
	console.log(`Open ${join(OUTPUT_DIR, 'index.html')} to see them as Discord would show them.`);
	console.log(
		'\nThe web dashboard, logged in as a member, an admin (its manage page too) and a member without the role:',
	);
	const written = await dashboardPages;
	if ('error' in written) throw written.error;
	assertNoKeyIn(dashboardOut, [memberAccount.apiKey, serverAccount.apiKey]);
	console.log(written.line);
	console.log(await writeEmbeds(bot.ctx, `http://127.0.0.1:${dashboardPort}`, dashboardGuildId, dashboardOut));
	// After the flows: Chromium beside them on two cores slows both down more than it saves.
	console.log(await screenshotDashboardPages(await openScreenshotTab(), dashboardOut));
} finally {
	await bot.stop();
	await sandbox.close();
	await upstream.close();
	await service.close();
	store.close();
	rmSync(work, { recursive: true, force: true });
}
