// The bot's GuildApi (src/discord/bot-rest.ts) against the Discord stand-in: renames, Discord's rename limit,
// the bot's permissions in a channel, deleted channels.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Permission, startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import { ChannelRefusedError, RenameRateLimitedError } from '../../src/errors.js';
import type { GuildApi } from '../../src/guild-api.js';
import { missingPermissions } from '../../src/permissions.js';
import { statChannelPermissions } from '../../src/watch/permissions.js';

describe('GuildApi renames and channel permissions on the stand-in', () => {
	let sandbox: DiscordSandbox;
	let api: GuildApi;

	before(async () => {
		sandbox = await startDiscordSandbox({ guildCount: 1 });
		api = botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }));
	});
	after(async () => sandbox.close());

	it('renames twice; the third rename within 10 minutes rejects at once with retry_after, and posts are not held up', async () => {
		const channelId = sandbox.guilds[0]!.voiceChannelIds[0]!;
		await api.renameChannel(channelId, 'Sends today: 1');
		await api.renameChannel(channelId, 'Sends today: 2');
		assert.equal(sandbox.channel(channelId)?.name, 'Sends today: 2');
		const started = Date.now();
		const third = await api.renameChannel(channelId, 'Sends today: 3').then(
			() => null,
			(error: unknown) => error,
		);
		assert.ok(third instanceof RenameRateLimitedError, `got ${String(third)}`);
		assert.ok(third.retryAfterMs > 9 * 60_000, `retry after ${third.retryAfterMs} ms`);
		assert.ok(Date.now() - started < 3000, 'the 429 was surfaced, not waited out');
		assert.equal(sandbox.channel(channelId)?.name, 'Sends today: 2');

		// Neither a post nor another rename of the same channel waits behind the limited one.
		const postStarted = Date.now();
		await api.postMessage(sandbox.guilds[0]!.defaultChannelId, { content: 'still posting' });
		assert.ok(Date.now() - postStarted < 3000);
		await assert.rejects(api.renameChannel(channelId, 'Sends today: 4'), RenameRateLimitedError);
	});

	it("computes the bot's permissions in a channel from roles and overwrites, as Discord does", async () => {
		const guild = sandbox.guilds[0]!;
		const voice = guild.voiceChannelIds[0]!;
		assert.equal(await api.channelPermissions(guild.id, voice), sandbox.permissionsIn(voice));
		assert.deepEqual(missingPermissions(await api.channelPermissions(guild.id, voice), statChannelPermissions(2)), []);

		sandbox.setChannelOverwrites(voice, [
			{ id: guild.id, type: 0, deny: Permission.Connect },
			{ id: sandbox.botUserId, type: 1, deny: Permission.ManageChannels },
		]);
		const granted = await api.channelPermissions(guild.id, voice);
		assert.equal(granted, sandbox.permissionsIn(voice));
		assert.deepEqual(missingPermissions(granted, statChannelPermissions(2)), ['manageChannels', 'connect']);
		await assert.rejects(
			api.renameChannel(voice, 'Sends today: 5'),
			(error: unknown) => error instanceof ChannelRefusedError && error.reason === 'missingPermissions',
		);
		sandbox.setChannelOverwrites(voice, []);
	});

	it('a deleted channel is refused as gone, for renames and for permissions', async () => {
		const guild = sandbox.guilds[0]!;
		const category = guild.categoryIds[1]!;
		sandbox.deleteChannel(category);
		const gone = (error: unknown) => error instanceof ChannelRefusedError && error.reason === 'channelGone';
		await assert.rejects(api.renameChannel(category, 'Joins all time: 7'), gone);
		await assert.rejects(api.channelPermissions(guild.id, category), gone);
	});
});
