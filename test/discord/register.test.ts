// `npm run register`'s call draws from the REST budget the bot's processes share through the store.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { createClient } from '@redis/client';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { registerCommands } from '../../src/discord/register.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { REDIS_URL } from '../links/backends.js';

let sandbox: DiscordSandbox;
let raw: ReturnType<typeof createClient>;
before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 1, channelsPerGuild: 1 });
	raw = createClient({ url: REDIS_URL });
	await raw.connect();
});
after(async () => {
	raw.destroy();
	await sandbox.close();
});

const prefix = () => `reg${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;
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
	const namespacePrefix = prefix();
	try {
		const registered = await register({ storeUrl: REDIS_URL, namespacePrefix, restPerSecond: 7 });
		assert.equal(registered.length, commandDefinitions.length);
		// A second's count lives 5 s in the store: read at once, it still holds the one call.
		const keys = (await raw.keys(`${namespacePrefix}rest-budget:*`)).filter((key) => /:\d+$/.test(key));
		const counts = keys.length === 0 ? [] : await raw.mGet(keys);
		assert.equal(
			counts.reduce((sum, count) => sum + Number(count ?? 0), 0),
			1,
		);
	} finally {
		const keys = await raw.keys(`${namespacePrefix}*`);
		if (keys.length > 0) await raw.del(keys);
	}
});

test('a store that refuses connections costs registering a bounded wait, never the registration', async () => {
	const started = performance.now();
	const registered = await register({ storeUrl: `redis://127.0.0.1:${await closedPort()}`, namespacePrefix: prefix() });
	assert.equal(registered.length, commandDefinitions.length);
	// Opening waits at most 2 s for the store, the call 1 s for its count, then it counts on its own share.
	assert.ok(performance.now() - started < 10_000, `took ${Math.round(performance.now() - started)} ms`);
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
