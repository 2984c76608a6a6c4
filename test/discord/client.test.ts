import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { Guild } from 'discord.js';
import { createDiscordClient } from '../../src/discord/client.js';

const TSX = import.meta.resolve('tsx');
const CLIENT = new URL('../../src/discord/client.ts', import.meta.url).href;

/** Runs `script` as an ES module in a fresh Node process with no flag beyond tsx; returns its stderr. */
function stderrOf(script: string): string {
	const run = spawnSync(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
		encoding: 'utf8',
		cwd: fileURLToPath(new URL('../..', import.meta.url)),
	});
	assert.equal(run.status, 0, run.stderr);
	return run.stderr;
}

describe('the Discord client the bot creates', () => {
	it('lifts @discordjs/rest’s global 50 requests a second, which would queue interaction edits', async () => {
		const client = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api' });
		try {
			assert.equal(client.rest.options.globalRequestsPerSecond, 1000);
			assert.equal(client.rest.options.api, 'http://127.0.0.1:9/api');
		} finally {
			await client.destroy();
		}
	});

	it('builds guild caches without printing the warning about the managers it limits on purpose', () => {
		// A guild builds the channel, role and permission-overwrite managers, each of which warns once.
		const stderr = stderrOf(`
			const { createDiscordClient } = await import(${JSON.stringify(CLIENT)});
			const client = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api' });
			const guild = client.guilds._add({ id: '1', name: 'g', channels: [{ id: '2', type: 0, name: 'c', permission_overwrites: [] }], roles: [{ id: '1', name: '@everyone', permissions: '0' }] });
			if (!guild) throw new Error('no guild');
			process.emitWarning('a warning that must still show', 'SomeOtherWarning');
			await client.destroy();
		`);
		assert.doesNotMatch(stderr, /UnsupportedCacheOverwriteWarning|Overriding the cache handling/);
		assert.match(stderr, /SomeOtherWarning: a warning that must still show/, 'other warnings still print');
	});

	it('shares one empty cache among the managers limited to nothing, which never holds an entry', async () => {
		const client = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api' });
		try {
			// discord.js's own way in for a GUILD_CREATE; private in its types.
			const add = (data: object) => (client.guilds as unknown as { _add(data: object): Guild | null })._add(data);
			const guild = add({
				id: '1',
				name: 'g',
				channels: [{ id: '2', type: 0, name: 'c', permission_overwrites: [] }],
				roles: [{ id: '1', name: '@everyone', permissions: '0' }],
			});
			const other = add({ id: '3', name: 'h', channels: [], roles: [] });
			assert.ok(guild && other);
			assert.equal(client.guilds.cache.size, 2, 'guilds themselves are kept');
			assert.equal(guild.channels.cache, other.roles.cache, 'one collection for every zero-size manager');
			assert.equal(guild.channels.cache.size, 0);
			assert.equal(guild.roles.cache.size, 0);
			assert.equal(client.channels.cache.size, 0);
			assert.notEqual(guild.members.cache, other.members.cache, 'members keep a cache of their own (the bot itself)');
		} finally {
			await client.destroy();
		}
	});

	it('still warns for a manager limited by mistake', () => {
		const stderr = stderrOf(`
			await import(${JSON.stringify(CLIENT)});
			process.emitWarning('Overriding the cache handling for GuildManager is unsupported and breaks functionality.', 'UnsupportedCacheOverwriteWarning');
		`);
		assert.match(stderr, /UnsupportedCacheOverwriteWarning: Overriding the cache handling for GuildManager/);
	});
});
