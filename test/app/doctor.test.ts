// `npm run doctor` as a host runs it: the CLI as a child process against the Discord stand-in, the
// bundled stats service and real stores, with one fault planted at a time.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createBoardStore } from '../../src/boards/board-store.js';
import { BOARD_SCHEMA_VERSION } from '../../src/boards/board-record.js';
import { API } from '../../src/discord/core-api.js';
import { PermissionFlagsBits, Routes } from 'discord.js';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { createBotRest } from '../../src/discord/bot-rest.js';
import { runDoctor } from '../../src/app/doctor/run-doctor.js';
import { openRestBudget } from '../../src/discord/rest-budget.js';
import { startInteractionsServer, type InteractionsServer } from '../../src/discord/interactions-server.js';
import type { InteractionRouter } from '../../src/discord/router.js';
import { registerCommands } from '../../src/discord/register.js';
import { createLinkStore } from '../../src/links/link-store.js';
import { createLogger } from '../../src/logger.js';
import { createReportStore } from '../../src/reports/report-store.js';
import { REPORT_SCHEMA_VERSION } from '../../src/reports/report-record.js';
import { openStatsStore, seedDemoAccount, startStatsServer } from '../../src/service/index.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import { listEntries } from '../../src/store/list-entries.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { CACHE_NAMESPACE } from '../../src/store/namespaces.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { createWatchStore } from '../../src/watch/watch-store.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { POSTGRES_URL, REDIS_URL } from '../links/backends.js';
import { startTcpProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { restBudgetOnRedis } from '../discord/rest-budget-redis.js';
import { closedPort } from '../links/closed-port.js';
import { statChannelRecord } from '../watch/stat-channel-records.js';

const CLI = new URL('../../src/app/doctor/main.ts', import.meta.url).pathname;
const TSX = import.meta.resolve('tsx');
const SECRET = randomBytes(32);
const OLD_SECRET = randomBytes(32);

interface Run {
	code: number;
	stdout: string;
	stderr: string;
	ms: number;
	/** `status detail` per check name, from the text output. */
	lines: Map<string, { status: string; detail: string }>;
}

let dir: string;
let sandbox: DiscordSandbox;
let service: { url: string; close(): Promise<void> };
let apiKeys: string[];
let guildId: string;
let reportChannel: string;
let auditChannel: string;
let baseEnv: Record<string, string>;

async function doctor(env: Record<string, string | undefined> = {}, args: string[] = []): Promise<Run> {
	const merged = Object.fromEntries(
		Object.entries({ ...baseEnv, ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
	);
	const started = performance.now();
	const run = await new Promise<Omit<Run, 'lines' | 'ms'>>((resolve) => {
		execFile(
			process.execPath,
			['--import', TSX, CLI, ...args],
			// No inherited variables and no .env: the cwd is a fresh directory.
			{ env: { PATH: process.env.PATH ?? '', ...merged }, cwd: dir, timeout: 60_000 },
			(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
	const lines = new Map<string, { status: string; detail: string }>();
	for (const line of run.stdout.split('\n')) {
		const match = /^(ok|warn|fail) ([a-z-]+): (.*)$/.exec(line);
		if (match) lines.set(match[2] ?? '', { status: match[1] ?? '', detail: match[3] ?? '' });
	}
	assertNoSecret(run, merged);
	return { ...run, lines, ms: performance.now() - started };
}

/** Whatever failed, no token, secret or API key reaches the output, in any encoding the checks might use. */
function assertNoSecret(run: { stdout: string; stderr: string }, env: Record<string, string>): void {
	const output = `${run.stdout}${run.stderr}`;
	const secrets = [
		env.DISCORD_TOKEN,
		env.LINK_SECRET,
		env.LINK_SECRET_PREVIOUS,
		sandbox.token,
		SECRET.toString('hex'),
		SECRET.toString('base64'),
		OLD_SECRET.toString('hex'),
		...apiKeys,
	];
	for (const secret of secrets) if (secret) assert.ok(!output.includes(secret), 'a secret was printed');
}

const status = (run: Run, name: string) => run.lines.get(name)?.status;
const detail = (run: Run, name: string) => run.lines.get(name)?.detail ?? '';

before(async () => {
	dir = mkdtempSync(join(tmpdir(), 'doctor-'));
	const statsStore = openStatsStore(join(dir, 'service.sqlite'));
	const server = await startStatsServer({ store: statsStore, port: 0, rateLimitPerMinute: 0 });
	service = {
		url: server.url,
		close: async () => {
			await server.close();
			statsStore.close();
		},
	};
	apiKeys = [
		seedDemoAccount(statsStore, { name: 'acme', days: 3 }).apiKey,
		seedDemoAccount(statsStore, { name: 'older', days: 3 }).apiKey,
	];
	sandbox = await startDiscordSandbox({ guildCount: 1, channelsPerGuild: 4 });
	guildId = sandbox.guildIds[0] ?? '';
	const channels = sandbox.guilds[0]?.channelIds ?? [];
	reportChannel = channels[1] ?? '';
	auditChannel = channels[2] ?? '';
	await registerGlobal(commandDefinitions);

	const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
	const stores = await openStores(storeUrl);
	const verifyKey = async () => ({ accountName: 'acme' });
	await createLinkStore({ keyv: stores.links, secret: SECRET, previousSecret: null, verifyKey }).linkUser(
		'1',
		apiKeys[0] ?? '',
	);
	// Written before a secret rotation: opens only with LINK_SECRET_PREVIOUS.
	await createLinkStore({ keyv: stores.links, secret: OLD_SECRET, previousSecret: null, verifyKey }).linkUser(
		'2',
		apiKeys[1] ?? '',
	);
	await seedReportAndAuditChannel(stores);
	await stores.close();

	baseEnv = {
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		STATS_API_BASE_URL: service.url,
		STORE_URL: storeUrl,
		LINK_SECRET: SECRET.toString('hex'),
		LINK_SECRET_PREVIOUS: OLD_SECRET.toString('hex'),
		CHART_RENDERER: 'local',
		SHARD_COUNT: '1',
		// Members have a privacy page, so `data` passes with the rest.
		PRIVACY_POLICY_URL: 'https://policy.example.org/privacy',
	};
});

after(async () => {
	await sandbox.close();
	await service.close();
	rmSync(dir, { recursive: true, force: true });
});

/** The channels the checks read: a daily report in the report channel, and the server's audit channel. */
async function seedReportAndAuditChannel(stores: Stores): Promise<void> {
	await createReportStore(stores).put({
		v: REPORT_SCHEMA_VERSION,
		guildId,
		channelId: reportChannel,
		every: 'daily',
		hour: 9,
		timezone: 'UTC',
		weekday: null,
		createdBy: '1',
		since: Date.now(),
		guildLocale: null,
		paused: null,
	});
	await createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }).update(guildId, {
		auditChannelId: auditChannel,
	});
}

function registerGlobal(definitions: readonly { name: string; toJSON(): object }[]) {
	return registerCommands({
		apiUrl: sandbox.apiUrl,
		token: sandbox.token,
		applicationId: sandbox.applicationId,
		guildId: null,
		definitions: definitions as typeof commandDefinitions,
	});
}

const GATEWAY_CHECKS = [
	'config',
	'node',
	'discord-token',
	'application',
	'commands',
	'gateway',
	'store',
	'links',
	'stats-api',
	'chart',
	'channels',
	'data',
];

describe('npm run doctor', () => {
	test('a clean configuration passes every check, in the table order, with exit 0', async () => {
		const run = await doctor();
		assert.equal(run.code, 0, run.stdout + run.stderr);
		assert.deepEqual([...run.lines.keys()], GATEWAY_CHECKS);
		for (const [name, line] of run.lines) assert.equal(line.status, 'ok', `${name}: ${line.detail}`);
		assert.match(run.stdout, /\ndoctor: 12 ok, 0 warn, 0 fail\n$/);
		assert.match(detail(run, 'links'), /^2 links open/);
		assert.match(detail(run, 'channels'), /^2 channels \([a-z, ]+\): the bot has what each needs$/);
		assert.match(detail(run, 'store'), /sqlite: wrote, read and deleted a probe entry in \d+ ms/);
		assert.equal(run.stderr, '');
	});

	test('the store probe leaves the store as it found it', async () => {
		await doctor();
		const stores = await openStores(baseEnv.STORE_URL ?? '');
		try {
			const keys: string[] = [];
			for await (const entry of listEntries(stores, CACHE_NAMESPACE)) keys.push(entry.key);
			assert.deepEqual(
				keys.filter((key) => key.startsWith('doctor-probe')),
				[],
			);
		} finally {
			await stores.close();
		}
	});

	test('--json prints the checks and the counts', async () => {
		const run = await doctor({ LINK_SECRET_PREVIOUS: undefined }, ['--json']);
		assert.equal(run.code, 1);
		const report = JSON.parse(run.stdout) as {
			checks: { name: string; status: string; detail: string }[];
			ok: number;
			warn: number;
			fail: number;
		};
		assert.deepEqual(Object.keys(report), ['checks', 'ok', 'warn', 'fail']);
		assert.deepEqual(
			report.checks.map((check) => check.name),
			GATEWAY_CHECKS,
		);
		for (const check of report.checks) {
			assert.deepEqual(Object.keys(check), ['name', 'status', 'detail']);
			assert.ok(['ok', 'warn', 'fail'].includes(check.status));
		}
		assert.deepEqual([report.ok, report.warn, report.fail], [11, 0, 1]);
	});

	test('a wrong token fails discord-token, and the checks that need Discord say why', async () => {
		const wrongToken = `${sandbox.token.slice(0, -4)}AAAA`;
		const run = await doctor({ DISCORD_TOKEN: wrongToken });
		assert.equal(run.code, 1);
		assert.equal(status(run, 'discord-token'), 'fail');
		assert.match(detail(run, 'discord-token'), /refused DISCORD_TOKEN \(401\).*Reset Token/);
		assert.match(detail(run, 'application'), /see discord-token/);
		assert.equal(status(run, 'store'), 'ok');
		assert.equal(status(run, 'stats-api'), 'ok');
		assert.ok(!run.stdout.includes(wrongToken));
	});

	test("another application's id fails application, naming the token's", async () => {
		const run = await doctor({ DISCORD_APPLICATION_ID: '123456789012345678' });
		assert.equal(run.code, 1);
		assert.equal(status(run, 'application'), 'fail');
		assert.match(detail(run, 'application'), new RegExp(`set DISCORD_APPLICATION_ID=${sandbox.applicationId}`));
		assert.equal(status(run, 'discord-token'), 'ok');
	});

	test('commands not registered in the dev guild are named, with npm run register as the fix', async () => {
		const run = await doctor({ DISCORD_DEV_GUILD_ID: guildId });
		assert.equal(status(run, 'commands'), 'fail');
		assert.match(detail(run, 'commands'), /not registered: \/stats, \/link, .*\/settings/);
		assert.match(detail(run, 'commands'), /npm run register$/);
	});

	test('commands out of date, missing and extra are each named', async () => {
		const changed = commandDefinitions
			.filter((definition) => definition.name !== 'help')
			.map((definition) =>
				definition.name === 'stats'
					? { name: 'stats', toJSON: () => ({ ...definition.toJSON(), description: 'an older text' }) }
					: definition,
			);
		await registerGlobal([...changed, { name: 'gone', toJSON: () => ({ name: 'gone', description: 'old' }) }]);
		try {
			const run = await doctor();
			assert.equal(run.code, 1);
			assert.equal(status(run, 'commands'), 'fail');
			assert.match(detail(run, 'commands'), /not registered: \/help/);
			assert.match(detail(run, 'commands'), /out of date: \/stats;/);
			assert.match(detail(run, 'commands'), /registered but no longer defined: \/gone/);
		} finally {
			await registerGlobal(commandDefinitions);
		}
	});

	test('a report channel where the bot may not attach files fails channels, naming the permission', async () => {
		sandbox.setChannelOverwrites(reportChannel, [
			{ id: guildId, type: 0, allow: '0', deny: String(PermissionFlagsBits.AttachFiles) },
		]);
		sandbox.setChannelOverwrites(auditChannel, [
			{ id: guildId, type: 0, allow: '0', deny: String(PermissionFlagsBits.SendMessages) },
		]);
		try {
			const run = await doctor();
			assert.equal(run.code, 1);
			assert.equal(status(run, 'channels'), 'fail');
			const text = detail(run, 'channels');
			assert.match(text, new RegExp(`report in channel ${reportChannel} .*lacks Attach Files;.*/report`));
			assert.match(text, new RegExp(`audit channel in channel ${auditChannel} .*lacks Send Messages;.*/settings`));
		} finally {
			sandbox.setChannelOverwrites(reportChannel, []);
			sandbox.setChannelOverwrites(auditChannel, []);
		}
	});

	test('a report whose channel was deleted fails channels, naming it', async () => {
		// A snowflake a second later than the guild's: no channel of the stand-in has it.
		const gone = String(BigInt(reportChannel) + (1000n << 22n));
		const stores = await openStores(baseEnv.STORE_URL ?? '');
		const reports = createReportStore(stores);
		const record = await reports.get(guildId, reportChannel);
		assert.ok(record);
		await reports.put({ ...record, channelId: gone });
		try {
			const run = await doctor();
			assert.equal(status(run, 'channels'), 'fail');
			assert.match(
				detail(run, 'channels'),
				new RegExp(`report in channel ${gone} .*: the channel was deleted; move it`),
			);
		} finally {
			await reports.remove(guildId, gone);
			await stores.close();
		}
	});

	/** The channels line with a voice stat channel stored and `denied` taken from everyone in it. */
	async function channelsWithStatChannelDenied(denied: bigint): Promise<{ channelId: string; line: string }> {
		const voiceChannel = sandbox.guilds[0]!.voiceChannelIds[0]!;
		const stores = await openStores(baseEnv.STORE_URL ?? '');
		const watch = createWatchStore(stores, createKeyedMutex());
		await watch.statChannels.put(
			statChannelRecord(guildId, voiceChannel, {
				figure: 'sends-today',
				createdBy: '300000000000000001',
				guildLocale: null,
			}),
		);
		sandbox.setChannelOverwrites(voiceChannel, [{ id: guildId, type: 0, allow: '0', deny: String(denied) }]);
		try {
			const run = await doctor();
			assert.equal(status(run, 'channels'), 'fail');
			return { channelId: voiceChannel, line: detail(run, 'channels') };
		} finally {
			sandbox.setChannelOverwrites(voiceChannel, []);
			await watch.statChannels.remove(guildId, voiceChannel);
			await stores.close();
		}
	}

	test('a stat channel the bot may not rename fails channels, naming Manage Channels and /statchannel', async () => {
		const { channelId, line } = await channelsWithStatChannelDenied(PermissionFlagsBits.ManageChannels);
		assert.match(
			line,
			new RegExp(`stat channel in channel ${channelId} .*lacks Manage Channels;.*/statchannel remove`),
		);
	});

	test('a voice stat channel the bot may not connect to fails channels, naming Connect, as the bot itself asks', async () => {
		const { channelId, line } = await channelsWithStatChannelDenied(PermissionFlagsBits.Connect);
		assert.match(line, new RegExp(`stat channel in channel ${channelId} .*lacks Connect;`));
	});

	test('an unknown argument exits 1 with one line naming it, and checks nothing', async () => {
		const run = await doctor({}, ['--bogus']);
		assert.equal(run.code, 1);
		assert.equal(run.stderr, 'doctor: unknown argument --bogus (the only option is --json)\n');
		assert.equal(run.lines.size, 0);
	});

	test('a board whose channel the bot may not embed links in fails channels, naming the permission and /board', async () => {
		const boardChannel = sandbox.guilds[0]!.channelIds[3]!;
		const stores = await openStores(baseEnv.STORE_URL ?? '');
		const boards = createBoardStore(stores, createKeyedMutex());
		await boards.update(guildId, boardChannel, () => ({
			v: BOARD_SCHEMA_VERSION,
			guildId,
			channelId: boardChannel,
			days: 30,
			metric: 'sends',
			createdBy: '300000000000000001',
			createdAt: Date.now(),
			guildLocale: null,
			paused: null,
			messageId: null,
			posts: 0,
			contentHash: null,
			updatedAt: null,
		}));
		sandbox.setChannelOverwrites(boardChannel, [
			{ id: guildId, type: 0, allow: '0', deny: String(PermissionFlagsBits.EmbedLinks) },
		]);
		try {
			const run = await doctor();
			assert.equal(run.code, 1);
			assert.equal(status(run, 'channels'), 'fail');
			assert.match(
				detail(run, 'channels'),
				new RegExp(`board in channel ${boardChannel} .*lacks Embed Links;.*/board remove, then /board add`),
			);
		} finally {
			sandbox.setChannelOverwrites(boardChannel, []);
			await boards.update(guildId, boardChannel, () => null);
			await stores.close();
		}
	});

	test('with WEB_PORT, web names the redirect URI to register and warns while WEB_PUBLIC_URL is not https', async () => {
		const web = { WEB_PORT: '8080', DISCORD_CLIENT_SECRET: 'web-client-secret-for-doctor' };
		const plain = await doctor({ ...web, WEB_PUBLIC_URL: 'http://stats.example.org' });
		assert.equal(status(plain, 'web'), 'warn');
		assert.match(detail(plain, 'web'), /not https.*register http:\/\/stats\.example\.org\/auth\/callback/);
		assert.doesNotMatch(plain.stdout, /web-client-secret-for-doctor/);
		const secure = await doctor({ ...web, WEB_PUBLIC_URL: 'https://stats.example.org' });
		assert.equal(status(secure, 'web'), 'ok');
		assert.match(detail(secure, 'web'), /register https:\/\/stats\.example\.org\/auth\/callback/);
		assert.deepEqual([...secure.lines.keys()].slice(-2), ['web', 'data']);
		// A missing client secret fails config, not web: web reads only WEB_PUBLIC_URL.
		const noSecret = await doctor({ WEB_PORT: '8080', WEB_PUBLIC_URL: 'https://stats.example.org' });
		assert.equal(status(noSecret, 'config'), 'fail');
		assert.match(detail(noSecret, 'config'), /DISCORD_CLIENT_SECRET/);
		assert.equal(status(noSecret, 'web'), 'ok');
	});

	test("data warns while members have no privacy page, and names the dashboard's /privacy once it is served", async () => {
		const none = await doctor({ PRIVACY_POLICY_URL: undefined });
		assert.equal(status(none, 'data'), 'warn');
		assert.match(detail(none, 'data'), /no privacy page.*PRIVACY_POLICY_URL/);
		assert.equal(none.code, 0, none.stdout);
		const web = { WEB_PORT: '8080', DISCORD_CLIENT_SECRET: 'web-client-secret-for-doctor' };
		const dashboard = await doctor({
			...web,
			WEB_PUBLIC_URL: 'https://stats.example.org',
			PRIVACY_POLICY_URL: undefined,
		});
		assert.equal(status(dashboard, 'data'), 'ok');
		assert.match(
			detail(dashboard, 'data'),
			/^members' privacy page is https:\/\/stats\.example\.org\/privacy: .*Privacy Policy URL/,
		);
	});

	test('a link no configured secret opens fails links with the count', async () => {
		const run = await doctor({ LINK_SECRET_PREVIOUS: undefined });
		assert.equal(status(run, 'links'), 'fail');
		assert.match(detail(run, 'links'), /^1 of 2 links do not open with LINK_SECRET: .*npm run links -- reseal/);
	});

	test('a stats API that is down fails stats-api', async () => {
		const run = await doctor({ STATS_API_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
		assert.equal(status(run, 'stats-api'), 'fail');
		assert.match(detail(run, 'stats-api'), /does not answer \(connection refused\): start the stats service/);
		assert.equal(status(run, 'discord-token'), 'ok');
	});
});

describe('npm run doctor with a bad variable', () => {
	// Each bad variable fails config (named, value never printed) and the checks that read it; every other
	// check runs against the stand-in, the stats service and the store as with a clean configuration.
	const cases: { name: string; env: Record<string, string>; blamed: RegExp; dependents: string[] }[] = [
		{
			name: 'a 16-byte LINK_SECRET',
			env: { LINK_SECRET: randomBytes(16).toString('hex') },
			blamed: /LINK_SECRET must be 32 bytes/,
			dependents: ['links'],
		},
		{
			name: 'an unknown CHART_RENDERER',
			env: { CHART_RENDERER: 'svg-magic' },
			blamed: /CHART_RENDERER must be quickchart, local or none/,
			dependents: ['chart'],
		},
		{
			name: 'a malformed STATS_API_BASE_URL',
			env: { STATS_API_BASE_URL: 'stats.example.org:8080' },
			blamed: /STATS_API_BASE_URL must be an http\(s\) URL/,
			dependents: ['stats-api'],
		},
		{
			name: 'a STORE_URL of an unknown scheme',
			env: { STORE_URL: 'mysql://127.0.0.1/bot' },
			blamed: /STORE_URL must start with sqlite:\/\/, redis:\/\/ or postgres:\/\//,
			dependents: ['store', 'links', 'channels'],
		},
		{
			name: 'a malformed DISCORD_API_URL',
			env: { DISCORD_API_URL: 'discord api' },
			blamed: /DISCORD_API_URL must be an http\(s\) URL/,
			dependents: ['discord-token', 'application', 'commands', 'gateway', 'channels'],
		},
	];

	for (const { name, env, blamed, dependents } of cases) {
		test(`${name} fails config and ${dependents.join(', ')}; every other check still runs`, async () => {
			const run = await doctor(env);
			assert.equal(run.code, 1, run.stdout + run.stderr);
			assert.deepEqual([...run.lines.keys()], GATEWAY_CHECKS);
			assert.equal(status(run, 'config'), 'fail');
			assert.match(detail(run, 'config'), blamed);
			const variable = Object.keys(env)[0] ?? '';
			for (const check of dependents) {
				assert.equal(status(run, check), 'fail', check);
				assert.match(detail(run, check), new RegExp(`^not checked: ${variable} is not valid \\(see config\\)`));
			}
			for (const check of GATEWAY_CHECKS.filter((check) => check !== 'config' && !dependents.includes(check))) {
				assert.equal(status(run, check), 'ok', `${check}: ${detail(run, check)}`);
			}
			assert.match(
				run.stdout,
				new RegExp(`\\ndoctor: ${11 - dependents.length} ok, 0 warn, ${1 + dependents.length} fail\\n$`),
			);
		});
	}

	test('two bad variables at once: both named, --json agrees with the text', async () => {
		const shortSecret = randomBytes(16).toString('base64');
		const env = { LINK_SECRET: shortSecret, CHART_RENDERER: 'svg-magic' };
		const text = await doctor(env);
		const json = await doctor(env, ['--json']);
		assert.equal(json.code, 1);
		const report = JSON.parse(json.stdout) as {
			checks: { name: string; status: string; detail: string }[];
			ok: number;
			warn: number;
			fail: number;
		};
		assert.deepEqual(
			report.checks.map((check) => [check.name, check.status]),
			[...text.lines].map(([name, line]) => [name, line.status]),
		);
		assert.deepEqual([report.ok, report.warn, report.fail], [9, 0, 3]);
		const config = report.checks.find((check) => check.name === 'config')?.detail ?? '';
		assert.match(config, /LINK_SECRET must be 32 bytes.*; CHART_RENDERER must be/);
		assert.ok(!json.stdout.includes(shortSecret) && !text.stdout.includes(shortSecret), 'the secret was printed');
		for (const name of ['discord-token', 'store', 'stats-api', 'channels']) {
			assert.equal(report.checks.find((check) => check.name === name)?.status, 'ok', name);
		}
	});
});

describe('npm run doctor with a store that fails', () => {
	let proxy: TcpProxy;
	before(async () => {
		proxy = await startTcpProxy(REDIS_URL);
	});
	after(async () => proxy.close());

	for (const mode of ['refuse', 'black-hole'] as const) {
		test(`a Redis store that ${mode === 'refuse' ? 'refuses connections' : 'never answers'} fails store within its deadline; the rest still run`, async () => {
			await proxy.setMode(mode);
			const run = await doctor({ STORE_URL: proxy.url });
			assert.equal(run.code, 1);
			assert.equal(status(run, 'store'), 'fail');
			assert.match(detail(run, 'store'), /STORE_URL/);
			assert.equal(status(run, 'links'), 'fail');
			assert.equal(status(run, 'channels'), 'fail');
			for (const name of ['discord-token', 'application', 'commands', 'stats-api', 'chart']) {
				assert.equal(status(run, name), 'ok', `${name}: ${detail(run, name)}`);
			}
			// Whichever gives up first, the doctor's deadline or the Redis client's own connect timeout, the check fails.
			if (mode === 'black-hole') {
				assert.match(detail(run, 'store'), /no answer within [345] s|did not take the probe entry/);
			}
			// The store check's deadline is 5 s; the child's start-up (tsx, imports) on a loaded machine comes on top.
			assert.ok(run.ms < 30_000, `took ${Math.round(run.ms)} ms`);
		});
	}

	test('a password in STORE_URL never reaches the output, even in the store error', async () => {
		const password = `pw-${randomBytes(6).toString('hex')}`;
		const run = await doctor({ STORE_URL: `postgres://postgres:${password}@127.0.0.1:${await closedPort()}/test` });
		assert.equal(status(run, 'store'), 'fail');
		assert.match(detail(run, 'store'), /^the postgres store (could not be opened|did not take the probe entry)/);
		assert.ok(!run.stdout.includes(password) && !run.stderr.includes(password), 'the password was printed');
	});

	for (const url of [REDIS_URL, POSTGRES_URL]) {
		test(`the store probe passes on ${url.split(':')[0]}`, async () => {
			const run = await doctor({ STORE_URL: url });
			assert.equal(status(run, 'store'), 'ok', detail(run, 'store'));
		});
	}
});

describe('the doctor on a shared store', () => {
	// In-process, with a namespace of its own on the shared Redis, as createServices takes one.
	const budget = restBudgetOnRedis('doc');

	/**
	 * Watches the store's per-second counts of the REST budget under `namespacePrefix`; stop() sums the slots
	 * granted (a call that found its second spent counts there too, then waits for the next: at most
	 * `perSecond` of a second's count are grants).
	 */
	function watchBudget(namespacePrefix: string, perSecond: number): () => Promise<number> {
		const seen = new Map<string, number>();
		const read = async () => {
			for (const [key, count] of await budget.secondCounts(namespacePrefix)) {
				seen.set(key, Math.max(seen.get(key) ?? 0, count));
			}
		};
		let stopped = false;
		const polling = (async () => {
			// A second's count lives 5 s in the store: reading often sees every one.
			while (!stopped) {
				await read();
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		})();
		return async () => {
			stopped = true;
			await polling;
			await read();
			return [...seen.values()].reduce((sum, count) => sum + Math.min(count, perSecond), 0);
		};
	}

	/** Bot-token requests the stand-in received per second since `before` (a copy of its counts). */
	function requestsSince(before: Map<number, number>): Map<number, number> {
		const since = new Map<number, number>();
		for (const [second, count] of sandbox.globalLimit.perSecond) {
			const added = count - (before.get(second) ?? 0);
			if (added > 0) since.set(second, added);
		}
		return since;
	}

	test("with a redis:// store, the doctor's Discord calls draw from the budget a running bot spends", async () => {
		const namespacePrefix = budget.prefix();
		const stores = await openStores(REDIS_URL, { namespacePrefix });
		await seedReportAndAuditChannel(stores);
		await stores.close();
		// A bot process on the same store, spending the same budget of 5 calls a second while the doctor runs.
		const perSecond = 5;
		const bot = await openRestBudget(REDIS_URL, { perSecond, namespacePrefix });
		const botRest = createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }, bot);
		const before = new Map(sandbox.globalLimit.perSecond);
		const stop = watchBudget(namespacePrefix, perSecond);
		try {
			const [report] = await Promise.all([
				runDoctor(
					{ ...baseEnv, STORE_URL: REDIS_URL, DISCORD_REST_PER_SECOND: String(perSecond), CHART_RENDERER: 'none' },
					{ namespacePrefix },
				),
				Promise.all(Array.from({ length: 10 }, async () => botRest.get(Routes.user()))),
			]);
			const checks = new Map(report.checks.map((check) => [check.name, check]));
			for (const name of ['discord-token', 'application', 'commands', 'gateway', 'store', 'channels']) {
				assert.equal(checks.get(name)?.status, 'ok', `${name}: ${checks.get(name)?.detail ?? ''}`);
			}
			assert.match(checks.get('channels')?.detail ?? '', /^2 channels \(report, audit channel\)/);
			const requests = requestsSince(before);
			const sent = [...requests.values()].reduce((sum, count) => sum + count, 0);
			// The bot's 10 and the doctor's: the bot user, the application, the commands, the gateway, then three
			// calls for the server and one per channel.
			assert.ok(sent >= 10 + 9, `${sent} requests`);
			// Every request of both processes took its slot in the store (a slot a late timer gave up is counted
			// without a request), and no second carried more than the one budget: with a budget of its own, the
			// doctor's first calls would have come on top of the bot's 5.
			const granted = await stop();
			assert.ok(granted >= sent, `${granted} slots in the store for ${sent} requests`);
			for (const [second, count] of requests) assert.ok(count <= perSecond, `${count} requests in second ${second}`);
		} finally {
			await stop();
			await bot.close();
			await budget.removeRun(namespacePrefix);
		}
	});

	test('an empty store: channels says that no channel of any kind is set', async () => {
		const report = await runDoctor(
			{ ...baseEnv, STORE_URL: REDIS_URL, CHART_RENDERER: 'none' },
			{ namespacePrefix: budget.prefix() },
		);
		assert.deepEqual(
			report.checks.find((check) => check.name === 'channels'),
			{ name: 'channels', status: 'ok', detail: 'no report, audit channel, stat channel, alert or board is set' },
		);
	});
});

describe('npm run doctor in HTTP interactions mode', () => {
	let endpoint: InteractionsServer;
	let port: number;
	before(async () => {
		const rest = createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token });
		endpoint = await startInteractionsServer({
			host: '127.0.0.1',
			port: 0,
			publicKey: Buffer.from(sandbox.publicKeyHex, 'hex'),
			api: new API(rest),
			// Only badly signed requests come: they are refused before any routing.
			router: {} as InteractionRouter,
			log: createLogger('silent'),
		});
		port = Number(new URL(endpoint.url).port);
	});
	after(async () => endpoint.close(async () => undefined));

	test('the right public key and an endpoint that refuses bad signatures pass interactions', async () => {
		const run = await doctor({ INTERACTIONS_PORT: String(port), DISCORD_PUBLIC_KEY: sandbox.publicKeyHex });
		assert.equal(status(run, 'interactions'), 'ok', detail(run, 'interactions'));
		assert.match(detail(run, 'interactions'), /refuses a badly signed request \(401\)/);
		assert.equal(run.lines.has('gateway'), false);
		assert.equal(run.code, 0, run.stdout);
	});

	test('an endpoint that does not answer is a warning: the bot may not be running', async () => {
		const run = await doctor({
			INTERACTIONS_PORT: String(await closedPort()),
			DISCORD_PUBLIC_KEY: sandbox.publicKeyHex,
		});
		assert.equal(status(run, 'interactions'), 'warn');
		assert.match(
			detail(run, 'interactions'),
			/nothing answers on 127\.0\.0\.1:\d+ \(connection refused\): start the bot/,
		);
		assert.equal(run.code, 0);
	});

	test('a wrong DISCORD_PUBLIC_KEY fails interactions', async () => {
		const run = await doctor({ INTERACTIONS_PORT: String(port), DISCORD_PUBLIC_KEY: randomBytes(32).toString('hex') });
		assert.equal(run.code, 1);
		assert.equal(status(run, 'interactions'), 'fail');
		assert.match(detail(run, 'interactions'), /not this application's Public Key.*General Information → Public Key/);
	});
});
