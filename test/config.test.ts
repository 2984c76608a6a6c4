import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, decodeSecret, loadConfig } from '../src/config.js';

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
