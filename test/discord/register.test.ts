// `npm run register`'s call draws from the REST budget the bot's processes share through the store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { registerCommands } from '../../src/discord/register.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { REDIS_URL } from '../links/backends.js';
import { closedPort } from '../links/closed-port.js';
import { restBudgetOnRedis } from './rest-budget-redis.js';

let sandbox: DiscordSandbox;
before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 1, channelsPerGuild: 1 });
});
after(async () => {
	await sandbox.close();
});
const budget = restBudgetOnRedis('reg');

const register = async (options: { storeUrl?: string; namespacePrefix?: string; restPerSecond?: number }) =>
	registerCommands({
		apiUrl: sandbox.apiUrl,
		token: sandbox.token,
		applicationId: sandbox.applicationId,
		guildId: null,
		definitions: commandDefinitions,
		...options,
	});

test("with a redis:// store, registering is counted in the store's shared REST budget", async () => {
	const namespacePrefix = budget.prefix();
	try {
		const registered = await register({ storeUrl: REDIS_URL, namespacePrefix, restPerSecond: 7 });
		assert.equal(registered.length, commandDefinitions.length);
		// A second's count lives 5 s in the store: read at once, it still holds the one call.
		const counts = [...(await budget.secondCounts(namespacePrefix)).values()];
		assert.equal(
			counts.reduce((sum, count) => sum + count, 0),
			1,
		);
	} finally {
		await budget.removeRun(namespacePrefix);
	}
});

test('a store that refuses connections costs registering a bounded wait, never the registration', async () => {
	const started = performance.now();
	const registered = await register({
		storeUrl: `redis://127.0.0.1:${await closedPort()}`,
		namespacePrefix: budget.prefix(),
	});
	assert.equal(registered.length, commandDefinitions.length);
	// Opening waits at most 2 s for the store, the call 1 s for its count, then it counts on its own share.
	assert.ok(performance.now() - started < 10_000, `took ${Math.round(performance.now() - started)} ms`);
});
