import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';

let sandbox: DiscordSandbox;
before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 2 });
});
after(async () => sandbox.close());

const getGuild = (guildId: string, authorization?: string) =>
	fetch(`${sandbox.apiUrl}/v10/guilds/${guildId}`, { headers: authorization ? { authorization } : {} });

test('GET /guilds/{id} answers the guild, without gateway-only fields, to the bot token only', async () => {
	const guildId = sandbox.guildIds[1]!;
	const response = await getGuild(guildId, `Bot ${sandbox.token}`);
	assert.equal(response.status, 200);
	const guild = (await response.json()) as Record<string, unknown>;
	assert.equal(guild.id, guildId);
	assert.equal(guild.name, 'Sandbox Guild 2');
	assert.ok(Array.isArray(guild.roles));
	for (const field of ['channels', 'members', 'joined_at', 'member_count']) assert.equal(field in guild, false, field);

	assert.equal((await getGuild(guildId)).status, 401);
	const unknown = await getGuild('123456789012345678', `Bot ${sandbox.token}`);
	assert.equal(unknown.status, 404);
	assert.equal(((await unknown.json()) as { code: number }).code, 10004);
});
