import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startDiscordSandbox } from '../../sandbox/index.js';
import { startTestBot } from './test-bot.js';

test('a client in 2,500 guilds becomes ready with every guild cached', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 2500 });
	t.after(() => sandbox.close());
	const startedAt = performance.now();
	const bot = await startTestBot(sandbox);
	t.after(() => bot.stop());
	const readyMs = performance.now() - startedAt;
	assert.equal(bot.client.guilds.cache.size, 2500);
	const guild = bot.client.guilds.cache.get(sandbox.guildIds[2499]!);
	assert.equal(guild?.channels.cache.size, 21, '20 text channels and a category');
	assert.equal(guild?.roles.cache.size, 16);
	t.diagnostic(`ready after ${readyMs.toFixed(0)} ms`);
	await sandbox.waitForIdentify();
	sandbox.assertNoViolations();
});
