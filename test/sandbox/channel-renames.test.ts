import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, beforeEach, test } from 'node:test';
import { RateLimitError, REST, Routes, type GuildBasedChannel } from 'discord.js';
import { Permission, RENAME_WINDOW_MS, startDiscordSandbox } from '../../sandbox/index.js';
import type { DiscordSandbox } from '../../sandbox/index.js';
import { checkAgainstSpec } from '../../sandbox/openapi-validator.js';
import { startTestBot } from './test-bot.js';
import type { TestBot } from './test-bot.js';

let sandbox: DiscordSandbox;
let bot: TestBot;
let clock = Date.parse('2026-11-30T09:00:00Z');

before(async () => {
	// The tests' own fetches bypass the bot's REST budget, and a fast run of them can pass Discord's 50 a second
	// (CI once got a 429 for the unknown channel below): this file checks channel rules, test/periodic the global limit.
	sandbox = await startDiscordSandbox({
		guildCount: 2,
		heartbeatIntervalMs: 1000,
		now: () => clock,
		globalRequestsPerSecond: null,
	});
	bot = await startTestBot(sandbox);
});
after(async () => {
	await bot.stop();
	await sandbox.close();
});
beforeEach(() => sandbox.clearRecords());

function patch(channelId: string, body: unknown): Promise<Response> {
	return fetch(`${sandbox.apiUrl}/v10/channels/${channelId}`, {
		method: 'PATCH',
		headers: { authorization: `Bot ${sandbox.token}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

function getChannel(channelId: string): Promise<Response> {
	return fetch(`${sandbox.apiUrl}/v10/channels/${channelId}`, { headers: { authorization: `Bot ${sandbox.token}` } });
}

test('every guild has a text category, text channels, a voice category and a voice channel; GET answers type and overwrites', async () => {
	const guild = sandbox.guilds[0]!;
	assert.equal(guild.categoryIds.length, 2);
	assert.equal(guild.voiceChannelIds.length, 1);
	assert.equal(guild.channelIds.length, 20);
	const types = new Map<string, number>();
	for (const id of [...guild.categoryIds, ...guild.channelIds, ...guild.voiceChannelIds]) {
		const response = await getChannel(id);
		assert.equal(response.status, 200);
		const channel = (await response.json()) as { type: number; permission_overwrites: unknown[]; guild_id: string };
		assert.deepEqual(checkAgainstSpec('GuildChannelResponse', channel), [], id);
		assert.deepEqual(channel.permission_overwrites, []);
		assert.equal(channel.guild_id, guild.id);
		types.set(id, channel.type);
	}
	assert.deepEqual(
		guild.categoryIds.map((id) => types.get(id)),
		[4, 4],
	);
	assert.equal(types.get(guild.voiceChannelIds[0]!), 2);
	assert.equal(types.get(guild.defaultChannelId), 0);

	const listed = await fetch(`${sandbox.apiUrl}/v10/guilds/${guild.id}/channels`, {
		headers: { authorization: `Bot ${sandbox.token}` },
	});
	assert.equal(((await listed.json()) as unknown[]).length, 23);
	const cached = bot.client.guilds.cache.get(guild.id)!.channels.cache;
	assert.equal(cached.get(guild.voiceChannelIds[0]!)?.isVoiceBased(), true, 'discord.js sees a voice channel');
});

test('two renames pass; the third within 10 minutes gets 429 with retry_after ≈ the rest of the window while the headers show requests left', async () => {
	const channelId = sandbox.guilds[0]!.voiceChannelIds[0]!;
	const started = clock;
	const updated = once(bot.client, 'channelUpdate') as Promise<[GuildBasedChannel, GuildBasedChannel]>;
	const first = await patch(channelId, { name: 'Sends today: 1,234' });
	assert.equal(first.status, 200);
	assert.equal(((await first.json()) as { name: string }).name, 'Sends today: 1,234');
	const [, after] = await updated;
	assert.equal(after.name, 'Sends today: 1,234', 'CHANNEL_UPDATE reached discord.js');

	clock += 60_000;
	assert.equal((await patch(channelId, { name: 'Sends today: 1,240' })).status, 200);
	clock += 90_000;
	const third = await patch(channelId, { name: 'Sends today: 1,300' });
	assert.equal(third.status, 429);
	const body = (await third.json()) as { message: string; retry_after: number; global: boolean };
	assert.equal(body.message, 'You are being rate limited.');
	assert.equal(body.global, false);
	const remaining = (started + RENAME_WINDOW_MS - clock) / 1000;
	assert.ok(Math.abs(body.retry_after - remaining) < 0.01, `retry_after ${body.retry_after}, expected ${remaining}`);
	assert.equal(third.headers.get('retry-after'), String(Math.ceil(remaining)));
	assert.ok(Number(third.headers.get('x-ratelimit-remaining')) > 0, 'the bucket headers still show requests left');
	assert.equal(third.headers.get('x-ratelimit-limit'), '5');
	assert.equal(third.headers.get('x-ratelimit-global'), null);
	assert.equal(((await (await getChannel(channelId)).json()) as { name: string }).name, 'Sends today: 1,240');
	assert.deepEqual(
		sandbox.renames.filter((rename) => rename.channelId === channelId),
		[
			{ channelId, name: 'Sends today: 1,234', at: started },
			{ channelId, name: 'Sends today: 1,240', at: started + 60_000 },
		],
	);
	assert.equal(sandbox.rejections.at(-1)?.status, 429);

	clock = started + RENAME_WINDOW_MS;
	assert.equal((await patch(channelId, { name: 'Sends today: 1,300' })).status, 200, 'the first left the window');
	assert.equal((await patch(channelId, { name: 'Sends today: 1,301' })).status, 429, 'the second is still in it');
	clock += 60_000;
	assert.equal((await patch(channelId, { name: 'Sends today: 1,301' })).status, 200);
	sandbox.assertNoViolations();
});

test('the window is per channel and counts topic changes; other fields are tolerated and do not count', async () => {
	const [text, other] = sandbox.guilds[1]!.channelIds as [string, string];
	const category = sandbox.guilds[1]!.categoryIds[0]!;
	assert.equal((await patch(text, { topic: 'a' })).status, 200);
	assert.equal((await patch(text, { name: 'renamed', nsfw: false, rate_limit_per_user: 5 })).status, 200);
	assert.equal((await patch(text, { nsfw: true })).status, 200, 'no name or topic: outside the rename limit');
	assert.equal((await patch(text, { topic: 'b' })).status, 429);
	assert.equal((await patch(other, { name: 'other' })).status, 200, 'another channel has its own window');
	const renamedCategory = await patch(category, { name: 'Stats' });
	assert.equal(renamedCategory.status, 200);
	assert.equal(((await renamedCategory.json()) as { name: string; type: number }).type, 4);
	sandbox.assertNoViolations();
});

test('discord.js with rejectOnRateLimit gets a RateLimitError whose sublimitTimeout is the retry_after', async () => {
	const channelId = sandbox.guilds[1]!.voiceChannelIds[0]!;
	const rest = new REST({ api: sandbox.apiUrl, rejectOnRateLimit: ['/channels'], retries: 0 }).setToken(sandbox.token);
	await rest.patch(Routes.channel(channelId), { body: { name: 'one' } });
	await rest.patch(Routes.channel(channelId), { body: { name: 'two' } });
	const error = await rest.patch(Routes.channel(channelId), { body: { name: 'three' } }).then(
		() => assert.fail('the third rename passed'),
		(caught: unknown) => caught,
	);
	assert.ok(error instanceof RateLimitError, String(error));
	// Retry-After in whole seconds, plus @discordjs/rest's default 50 ms offset.
	assert.ok(error.sublimitTimeout > 590_000 && error.sublimitTimeout <= 601_000, String(error.sublimitTimeout));
	assert.equal(error.global, false);
});

test('a name over 100 characters or empty is 50035; no Manage Channels is 403 50013; no View Channel 50001', async () => {
	const guild = sandbox.guilds[0]!;
	const [channelId] = guild.channelIds.slice(5) as [string];
	for (const name of ['', 'x'.repeat(101)]) {
		const response = await patch(channelId, { name });
		assert.equal(response.status, 400);
		assert.equal(((await response.json()) as { code: number }).code, 50035);
	}
	sandbox.clearRecords();
	sandbox.setChannelOverwrites(channelId, [{ id: sandbox.botUserId, type: 1, deny: Permission.ManageChannels }]);
	const denied = await patch(channelId, { name: 'nope' });
	assert.equal(denied.status, 403);
	assert.equal(((await denied.json()) as { code: number }).code, 50013);
	sandbox.setChannelOverwrites(channelId, [{ id: guild.id, type: 0, deny: Permission.ViewChannel }]);
	const hidden = await patch(channelId, { name: 'nope' });
	assert.equal(((await hidden.json()) as { code: number }).code, 50001);
	assert.equal(hidden.status, 403);
	assert.equal(((await (await getChannel(channelId)).json()) as { code: number }).code, 50001);
	sandbox.setChannelOverwrites(channelId, []);
	assert.equal((await patch(channelId, { name: 'allowed' })).status, 200, 'refusals did not use the budget');
});

test('a deleted channel answers 404 10003 to GET, PATCH and POST, and CHANNEL_DELETE reaches discord.js', async () => {
	const guild = sandbox.guilds[0]!;
	const channelId = guild.channelIds[10]!;
	const deleted = once(bot.client, 'channelDelete') as Promise<[GuildBasedChannel]>;
	sandbox.deleteChannel(channelId);
	assert.equal((await deleted)[0].id, channelId);
	for (const response of [
		await getChannel(channelId),
		await patch(channelId, { name: 'ghost' }),
		await fetch(`${sandbox.apiUrl}/v10/channels/${channelId}/messages`, {
			method: 'POST',
			headers: { authorization: `Bot ${sandbox.token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ content: 'hello' }),
		}),
	]) {
		assert.equal(response.status, 404);
		assert.equal(((await response.json()) as { code: number }).code, 10003);
	}
	assert.equal(guild.channelIds.includes(channelId), false);
	assert.equal(sandbox.channel(channelId), undefined);
	assert.equal((await patch('123456789012345678', { name: 'x' })).status, 404, 'an unknown channel too');
});

test('deleting a category leaves its channels without a parent', async () => {
	const guild = sandbox.guilds[1]!;
	const voiceCategory = guild.categoryIds[1]!;
	sandbox.deleteChannel(voiceCategory);
	assert.equal(sandbox.channel(guild.voiceChannelIds[0]!)?.parent_id, null);
	assert.equal(guild.categoryIds.length, 1);
});
