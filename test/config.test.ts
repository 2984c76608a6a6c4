import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { decodeSecret } from '../src/env-readers.js';

const SECRET_HEX = 'a'.repeat(64);
const BASE_ENV = {
	DISCORD_TOKEN: 'token-value-that-must-not-leak',
	STATS_API_BASE_URL: 'http://127.0.0.1:8787',
	LINK_SECRET: SECRET_HEX,
};

function problemsOf(env: Record<string, string>): string[] {
	try {
		loadConfig(env);
	} catch (error) {
		assert.ok(error instanceof ConfigError);
		return error.problems;
	}
	return [];
}

describe('config', () => {
	it('applies the documented defaults', () => {
		const config = loadConfig(BASE_ENV);
		assert.equal(config.discordApiUrl, 'https://discord.com/api');
		assert.equal(config.storeUrl, 'sqlite://data/bot.sqlite');
		assert.equal(config.chartRenderer, 'quickchart');
		assert.equal(config.quickchartUrl, 'https://quickchart.io');
		assert.equal(config.statsCacheTtlSeconds, 60);
		assert.equal(config.statsApiTimeoutMs, 2500);
		assert.equal(config.statsCooldownSeconds, 3);
		assert.equal(config.logLevel, 'info');
		assert.equal(config.devGuildId, null);
		assert.equal(config.linkSecret.length, 32);
		assert.equal(config.linkSecretPrevious, null);
	});

	it('names every missing required variable', () => {
		assert.deepEqual(problemsOf({}), [
			'DISCORD_TOKEN is required',
			'STATS_API_BASE_URL is required',
			'LINK_SECRET is required (32 bytes as 64 hex characters or base64)',
		]);
	});

	it('rejects malformed values by name without echoing them', () => {
		const problems = problemsOf({
			...BASE_ENV,
			LINK_SECRET: 'short-secret-value',
			STATS_API_BASE_URL: 'ftp://example',
			CHART_RENDERER: 'svg',
			STATS_CACHE_TTL_SECONDS: '-1',
			STORE_URL: 'mysql://x',
			DISCORD_DEV_GUILD_ID: 'abc',
		});
		assert.equal(problems.length, 6);
		for (const name of [
			'LINK_SECRET',
			'STATS_API_BASE_URL',
			'CHART_RENDERER',
			'STATS_CACHE_TTL_SECONDS',
			'STORE_URL',
		]) {
			assert.ok(
				problems.some((p) => p.startsWith(name)),
				`${name} is named`,
			);
		}
		assert.ok(!problems.join(' ').includes('short-secret-value'));
	});

	it('accepts a base64 secret and a previous secret for rotation', () => {
		const b64 = Buffer.alloc(32, 7).toString('base64');
		const config = loadConfig({ ...BASE_ENV, LINK_SECRET: b64, LINK_SECRET_PREVIOUS: SECRET_HEX });
		assert.deepEqual(config.linkSecret, Buffer.alloc(32, 7));
		assert.deepEqual(config.linkSecretPrevious, Buffer.from(SECRET_HEX, 'hex'));
	});

	it('decodes only secrets of exactly 32 bytes', () => {
		assert.equal(decodeSecret('ab'.repeat(31)), null);
		assert.equal(decodeSecret(Buffer.alloc(16).toString('base64')), null);
		assert.equal(decodeSecret(Buffer.alloc(32, 1).toString('base64url'))?.length, 32);
	});

	it('honours a cache TTL of 0 and of 1 second', () => {
		assert.equal(loadConfig({ ...BASE_ENV, STATS_CACHE_TTL_SECONDS: '0' }).statsCacheTtlSeconds, 0);
		assert.equal(loadConfig({ ...BASE_ENV, STATS_CACHE_TTL_SECONDS: '1' }).statsCacheTtlSeconds, 1);
	});

	it('needs only the Discord variables to register commands', () => {
		const config = loadConfig({ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456789012345678' }, 'register');
		assert.equal(config.applicationId, '123456789012345678');
		assert.throws(() => loadConfig({ DISCORD_TOKEN: 't' }, 'register'), /DISCORD_APPLICATION_ID is required/);
	});
});

describe('config of the second milestone', () => {
	const PUBLIC_KEY = 'b'.repeat(64);

	it('applies the defaults of history, scale and metrics', () => {
		const config = loadConfig(BASE_ENV);
		assert.equal(config.historySampling, true);
		assert.equal(config.historySamplePerMinute, 30);
		assert.equal(config.historyDays, 400);
		assert.equal(config.statChannelMinutes, 10);
		assert.equal(config.alertCheckMinutes, 15);
		assert.equal(config.shardCount, 'auto');
		assert.equal(config.botProcesses, 1);
		assert.equal(config.interactionsPort, null);
		assert.equal(config.interactionsHost, '127.0.0.1');
		assert.equal(config.discordPublicKey, null);
		assert.equal(config.metricsPort, null);
		assert.equal(config.metricsHost, '127.0.0.1');
	});

	it('reads every variable when set', () => {
		const config = loadConfig({
			...BASE_ENV,
			STORE_URL: 'redis://127.0.0.1:6379',
			HISTORY_SAMPLING: 'off',
			HISTORY_SAMPLE_PER_MINUTE: '5',
			HISTORY_DAYS: '500',
			SHARD_COUNT: '4',
			BOT_PROCESSES: '2',
			METRICS_PORT: '9464',
			METRICS_HOST: '0.0.0.0',
		});
		assert.equal(config.historySampling, false);
		assert.equal(config.historySamplePerMinute, 5);
		assert.equal(config.historyDays, 500);
		assert.equal(config.shardCount, 4);
		assert.equal(config.botProcesses, 2);
		assert.equal(config.metricsPort, 9464);
		assert.equal(config.metricsHost, '0.0.0.0');
		const http = loadConfig({ ...BASE_ENV, INTERACTIONS_PORT: '8080', DISCORD_PUBLIC_KEY: PUBLIC_KEY });
		assert.equal(http.interactionsPort, 8080);
		assert.deepEqual(http.discordPublicKey, Buffer.from(PUBLIC_KEY, 'hex'));
	});

	it('reads the stat channel and alert intervals, and refuses them below 5 minutes or malformed', () => {
		const config = loadConfig({ ...BASE_ENV, STAT_CHANNEL_MINUTES: '5', ALERT_CHECK_MINUTES: '60' });
		assert.equal(config.statChannelMinutes, 5);
		assert.equal(config.alertCheckMinutes, 60);
		for (const bad of ['4', '0', '-10', '7.5', 'ten', '1441']) {
			assert.deepEqual(problemsOf({ ...BASE_ENV, STAT_CHANNEL_MINUTES: bad, ALERT_CHECK_MINUTES: bad }), [
				'STAT_CHANNEL_MINUTES must be a whole number from 5 to 1440',
				'ALERT_CHECK_MINUTES must be a whole number from 5 to 1440',
			]);
		}
	});

	it('refuses sqlite:// with several processes, in one line', () => {
		assert.deepEqual(problemsOf({ ...BASE_ENV, SHARD_COUNT: '2', BOT_PROCESSES: '2' }), [
			'BOT_PROCESSES above 1 needs a shared STORE_URL (redis:// or postgres://): sqlite:// is for one process',
		]);
	});

	it('reads the shards and index a ShardingManager handed its child, and only in a managed child', () => {
		const child = (env: Record<string, string>) =>
			loadConfig({ ...BASE_ENV, STORE_URL: 'redis://x', SHARD_COUNT: '4', BOT_PROCESSES: '2', ...env }).managedChild;
		assert.equal(child({ SHARDS: '[0,1]', BOT_PROCESS_INDEX: '0' }), null);
		assert.equal(loadConfig(BASE_ENV).managedChild, null);
		assert.deepEqual(child({ SHARDING_MANAGER: 'true', SHARDS: '[2,3]', BOT_PROCESS_INDEX: '1' }), {
			index: 1,
			shards: [2, 3],
		});
		assert.deepEqual(child({ SHARDING_MANAGER: 'true', SHARDS: '1' }), { index: 0, shards: [1] });
		const childProblems = (shards: string) =>
			problemsOf({ ...BASE_ENV, STORE_URL: 'redis://x', SHARD_COUNT: '4', SHARDING_MANAGER: 'true', SHARDS: shards });
		assert.match(childProblems('0,1').join(), /SHARDS must be a JSON list/);
		assert.match(childProblems('[4]').join(), /SHARDS must list shard ids below 4/);
		assert.match(childProblems('[]').join(), /SHARDS must list shard ids below 4/);
	});

	it('refuses shapes that cannot work', () => {
		assert.match(problemsOf({ ...BASE_ENV, INTERACTIONS_PORT: '8080' }).join(), /DISCORD_PUBLIC_KEY is required/);
		assert.match(
			problemsOf({ ...BASE_ENV, INTERACTIONS_PORT: '8080', DISCORD_PUBLIC_KEY: 'zz' }).join(),
			/DISCORD_PUBLIC_KEY must be 64 hex/,
		);
		assert.match(
			problemsOf({ ...BASE_ENV, STATS_API_BASE_URL: 'https://ads.example/api/v1/stats' }).join(),
			/STATS_API_BASE_URL must be the base URL only/,
		);
		assert.match(
			problemsOf({
				...BASE_ENV,
				STORE_URL: 'redis://x',
				INTERACTIONS_PORT: '80',
				DISCORD_PUBLIC_KEY: PUBLIC_KEY,
				BOT_PROCESSES: '2',
			}).join(),
			/BOT_PROCESSES is for gateway shards/,
		);
		assert.match(
			problemsOf({ ...BASE_ENV, STORE_URL: 'redis://x', SHARD_COUNT: '1', BOT_PROCESSES: '2' }).join(),
			/cannot exceed SHARD_COUNT/,
		);
		assert.match(
			problemsOf({ ...BASE_ENV, HISTORY_DAYS: '30' }).join(),
			/HISTORY_DAYS must be a whole number from 366/,
		);
		assert.deepEqual(problemsOf({ ...BASE_ENV, HISTORY_DAYS: '366' }), []);
		assert.match(
			problemsOf({ ...BASE_ENV, HISTORY_DAYS: '365' }).join(),
			/HISTORY_DAYS must be a whole number from 366/,
		);
		assert.match(problemsOf({ ...BASE_ENV, HISTORY_SAMPLING: 'maybe' }).join(), /HISTORY_SAMPLING must be on or off/);
		assert.match(problemsOf({ ...BASE_ENV, SHARD_COUNT: '0' }).join(), /SHARD_COUNT must be a whole number/);
	});

	it('registering needs neither the stats service nor a store check', () => {
		const config = loadConfig(
			{ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456789012345678', STORE_URL: 'nonsense' },
			'register',
		);
		assert.equal(config.applicationId, '123456789012345678');
	});
	describe('web dashboard', () => {
		const WEB_ENV = {
			...BASE_ENV,
			DISCORD_APPLICATION_ID: '123456789012345678',
			WEB_PORT: '8080',
			WEB_PUBLIC_URL: 'https://stats.example.org/',
			DISCORD_CLIENT_SECRET: 'client-secret-that-must-not-leak',
		};

		it('is off by default, with the documented defaults', () => {
			const config = loadConfig(BASE_ENV);
			assert.equal(config.webPort, null);
			assert.equal(config.webHost, '127.0.0.1');
			assert.equal(config.webPublicUrl, null);
			assert.equal(config.discordClientSecret, null);
			assert.equal(config.discordOauthUrl, 'https://discord.com/oauth2/authorize');
		});

		it('reads WEB_PORT, WEB_HOST, WEB_PUBLIC_URL, DISCORD_CLIENT_SECRET and DISCORD_OAUTH_URL', () => {
			const config = loadConfig({
				...WEB_ENV,
				WEB_HOST: '0.0.0.0',
				DISCORD_OAUTH_URL: 'http://127.0.0.1:9/oauth2/authorize',
			});
			assert.equal(config.webPort, 8080);
			assert.equal(config.webHost, '0.0.0.0');
			assert.equal(config.webPublicUrl, 'https://stats.example.org');
			assert.equal(config.discordClientSecret, 'client-secret-that-must-not-leak');
			assert.equal(config.discordOauthUrl, 'http://127.0.0.1:9/oauth2/authorize');
		});

		it('reads PRIVACY_CONTACT and PRIVACY_POLICY_URL, unset by default; a policy address must be a URL', () => {
			const unset = loadConfig(BASE_ENV);
			assert.equal(unset.privacyContact, null);
			assert.equal(unset.privacyPolicyUrl, null);
			const config = loadConfig({
				...BASE_ENV,
				PRIVACY_CONTACT: ' privacy@example.org ',
				PRIVACY_POLICY_URL: 'https://example.org/privacy',
			});
			assert.equal(config.privacyContact, 'privacy@example.org');
			assert.equal(config.privacyPolicyUrl, 'https://example.org/privacy');
			assert.match(problemsOf({ ...BASE_ENV, PRIVACY_POLICY_URL: 'example.org' }).join('\n'), /PRIVACY_POLICY_URL/);
		});

		it('names what WEB_PORT needs, without printing the secret', () => {
			const problems = problemsOf({ ...BASE_ENV, WEB_PORT: '8080' }).join('\n');
			assert.match(problems, /WEB_PUBLIC_URL is required/);
			assert.match(problems, /DISCORD_CLIENT_SECRET is required with WEB_PORT/);
			assert.match(problems, /DISCORD_APPLICATION_ID is required with WEB_PORT/);
			assert.match(
				problemsOf({ ...WEB_ENV, WEB_PUBLIC_URL: 'ftp://x' }).join(),
				/WEB_PUBLIC_URL must be an http\(s\) URL/,
			);
			assert.match(
				problemsOf({ ...WEB_ENV, WEB_PUBLIC_URL: 'https://x.example/dashboard' }).join(),
				/WEB_PUBLIC_URL must be an origin only/,
			);
			assert.match(problemsOf({ ...WEB_ENV, WEB_PORT: 'http' }).join(), /WEB_PORT must be a whole number/);
			const all = problemsOf({ ...WEB_ENV, WEB_PORT: 'x', WEB_PUBLIC_URL: 'nope' }).join();
			assert.doesNotMatch(all, /client-secret-that-must-not-leak/);
		});

		it('refuses WEB_PORT with BOT_PROCESSES above 1 in one line naming npm run web', () => {
			const problems = problemsOf({ ...WEB_ENV, STORE_URL: 'redis://x', BOT_PROCESSES: '2' });
			assert.equal(problems.length, 1);
			assert.match(problems[0]!, /BOT_PROCESSES=1.*npm run web/);
			assert.equal(loadConfig({ ...WEB_ENV, STORE_URL: 'redis://x', BOT_PROCESSES: '2' }, 'web').webPort, 8080);
		});

		it('npm run web needs WEB_PORT', () => {
			assert.throws(() => loadConfig(BASE_ENV, 'web'), /WEB_PORT is required for npm run web/);
		});
	});
});
