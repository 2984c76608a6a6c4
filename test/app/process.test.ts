import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { translator } from '../../src/i18n/index.js';

const en = translator('en-US');
import { registerBotCommands } from './harness.js';
import { runNode, startCommandArgs } from './bot-process.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { startSwitchableUpstream, type SwitchableUpstream } from '../commands/switchable-upstream.js';

const REGISTER = fileURLToPath(new URL('../../src/app/register-cli.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** Runs `npm start`'s command (or other arguments after `node`) in a directory without a .env, with exactly `env`. */
function startBotProcess(env: Record<string, string>, cwd: string, args = startCommandArgs()) {
	return runNode(args, env, cwd);
}

describe('the bot process', () => {
	let dir: string;
	let sandbox: DiscordSandbox;
	let upstream: SwitchableUpstream;
	before(async () => {
		dir = mkdtempSync(join(tmpdir(), 'adstats-process-'));
		sandbox = await startDiscordSandbox({ guildCount: 1 });
		upstream = await startSwitchableUpstream('503-feature');
		await registerBotCommands(sandbox);
	});
	after(async () => {
		await sandbox.close();
		await upstream.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('exits 1 with one line per bad variable, naming it and not its value', async () => {
		const bot = startBotProcess({ LINK_SECRET: 'not-a-real-secret-value', STATS_COOLDOWN_SECONDS: 'soon' }, dir);
		assert.equal(await bot.exited, 1);
		const lines = bot.output().stderr.trim().split('\n');
		assert.deepEqual(lines, [
			'Configuration error: DISCORD_TOKEN is required',
			'Configuration error: STATS_API_BASE_URL is required',
			'Configuration error: LINK_SECRET must be 32 bytes as 64 hex characters or base64',
			'Configuration error: STATS_COOLDOWN_SECONDS must be a whole number from 0 to 3600',
		]);
	});

	it('a store that cannot open at start stops the login beside it: exit 1 at once, naming the folder', async () => {
		// A SQLite file under a regular file: its folder can never be created.
		const blocker = join(dir, 'a-file');
		writeFileSync(blocker, '');
		// A Discord that accepts connections and never answers: the login would wait for it for good.
		const silent = createServer(() => undefined);
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const started = Date.now();
		const bot = startBotProcess(
			{
				DISCORD_TOKEN: sandbox.token,
				DISCORD_API_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`,
				STATS_API_BASE_URL: upstream.url,
				STORE_URL: `sqlite://${join(blocker, 'bot.sqlite')}`,
				LINK_SECRET: randomBytes(32).toString('hex'),
				SHARD_COUNT: '1',
				CHART_RENDERER: 'none',
				HISTORY_SAMPLING: 'off',
			},
			dir,
		);
		try {
			assert.equal(await bot.exited, 1, bot.output().stderr);
		} finally {
			silent.close();
		}
		assert.ok(Date.now() - started < 5000, 'not held up by the login');
		assert.equal(
			bot.output().stderr.trim(),
			`Start-up failed: cannot create the folder ${blocker} for the SQLite store (EEXIST): check STORE_URL`,
		);
	});

	it('a token Discord refuses closes the store opened beside the login: exit 1, naming the token', async () => {
		const bot = startBotProcess(
			{
				DISCORD_TOKEN: 'not-the-bot-token',
				DISCORD_API_URL: sandbox.apiUrl,
				STATS_API_BASE_URL: upstream.url,
				STORE_URL: `sqlite://${join(dir, 'refused-token.sqlite')}`,
				LINK_SECRET: randomBytes(32).toString('hex'),
				SHARD_COUNT: '1',
				CHART_RENDERER: 'none',
				HISTORY_SAMPLING: 'off',
			},
			dir,
		);
		assert.equal(await bot.exited, 1, bot.output().stderr);
		assert.match(bot.output().stderr, /^Start-up failed: .*token/imu);
		assert.ok(!bot.output().stderr.includes('not-the-bot-token'));
	});

	it('npm run register overwrites the dev guild commands idempotently', async () => {
		const guildId = sandbox.guildIds[0]!;
		const env = {
			DISCORD_TOKEN: sandbox.token,
			DISCORD_APPLICATION_ID: sandbox.applicationId,
			DISCORD_API_URL: sandbox.apiUrl,
			DISCORD_DEV_GUILD_ID: guildId,
		};
		const first = startBotProcess(env, dir, ['--import', TSX, REGISTER]);
		assert.equal(await first.exited, 0, first.output().stderr);
		assert.match(
			first.output().stdout,
			new RegExp(`Registered ${commandDefinitions.length} commands to guild ${guildId}`),
		);
		const ids = sandbox.registeredCommands(guildId).map((command) => command.id);
		assert.equal(ids.length, commandDefinitions.length);
		const second = startBotProcess(env, dir, ['--import', TSX, REGISTER]);
		assert.equal(await second.exited, 0);
		assert.deepEqual(
			sandbox.registeredCommands(guildId).map((command) => command.id),
			ids,
			'the same commands keep their ids',
		);
		assert.ok(!first.output().stdout.includes(sandbox.token));
	});

	it('on SIGTERM finishes the reply in flight, closes and exits 0', async () => {
		const bot = startBotProcess(
			{
				DISCORD_TOKEN: sandbox.token,
				DISCORD_API_URL: sandbox.apiUrl,
				STATS_API_BASE_URL: upstream.url,
				STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
				LINK_SECRET: randomBytes(32).toString('hex'),
				CHART_RENDERER: 'none',
				STATS_API_TIMEOUT_MS: '1500',
				STATS_COOLDOWN_SECONDS: '0',
			},
			dir,
		);
		try {
			await sandbox.waitForIdentify(15_000);
			const userId = '340000000000000001';
			const link = sandbox.dispatchCommand({ name: 'link', userId });
			await link.firstResponse(10_000);
			await sandbox
				.dispatchModalSubmit({ customId: 'link:submit', fields: { 'api-key': 'scenario-key-shutdown-1234' }, userId })
				.finalMessage(10_000);

			upstream.scenario = 'slow-headers';
			const stats = sandbox.dispatchCommand({ name: 'stats', userId });
			await stats.firstResponse();
			bot.child.kill('SIGTERM');
			const message = await stats.finalMessage(5000);
			assert.equal(message.content, en('errors.unreachable'), 'the reply in flight was finished');
			assert.equal(await bot.exited, 0);
			assert.match(bot.output().stdout, /"msg":"stopped"/);
			assert.ok(!bot.output().stdout.includes(sandbox.token));
			// Started like `npm start`, with no flag: the caches limited on purpose do not warn.
			assert.doesNotMatch(bot.output().stderr, /UnsupportedCacheOverwriteWarning|Overriding the cache handling/);
		} finally {
			bot.child.kill('SIGKILL');
		}
	});
});
