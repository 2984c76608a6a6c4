import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Guild } from 'discord.js';
import { startTestBot } from '../sandbox/test-bot.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import { startHarness } from '../app/harness.js';

const GUILDS = 2500;

/** Everything a guild keeps besides itself; the bot reads none of it, interactions carry what it needs. */
function cachedPerGuild(guild: Guild): number {
	return (
		guild.channels.cache.size +
		guild.roles.cache.size +
		guild.emojis.cache.size +
		guild.stickers.cache.size +
		guild.members.cache.filter((member) => member.id !== guild.client.user.id).size +
		guild.voiceStates.cache.size +
		guild.presences.cache.size +
		guild.scheduledEvents.cache.size +
		guild.stageInstances.cache.size
	);
}

function heapMiB(): number {
	globalThis.gc?.();
	return process.memoryUsage().heapUsed / 2 ** 20;
}

test(`the bot in ${GUILDS} guilds is ready with every guild known and nothing else cached, and answers`, async (t) => {
	const heapBefore = heapMiB();
	const h = await startHarness({ guildCount: GUILDS });
	t.after(() => h.close());
	const { client } = h.bot;
	const heapGrowth = heapMiB() - heapBefore;
	assert.ok(client, 'gateway mode has a client');

	assert.equal(client.guilds.cache.size, GUILDS);
	let cached = 0;
	for (const guild of client.guilds.cache.values()) cached += cachedPerGuild(guild);
	assert.equal(cached, 0, 'no channel, role, member, emoji or sticker of any guild is cached');
	assert.equal(client.channels.cache.size, 0);
	assert.ok(client.users.cache.size <= 1, 'only the bot itself');

	// The stand-in sends each guild with 21 channels and 16 roles: a plain client caches all of them.
	const plainSandbox = await startDiscordSandbox({ guildCount: 200 });
	t.after(() => plainSandbox.close());
	const plain = await startTestBot(plainSandbox);
	t.after(() => plain.stop());
	const plainGuild = plain.client.guilds.cache.first()!;
	assert.ok(cachedPerGuild(plainGuild) >= 37, 'the stand-in does send the bulk the bot leaves out');

	t.diagnostic(`heap grew ${heapGrowth.toFixed(1)} MiB for ${GUILDS} guilds`);
	// Stand-in and bot together: about 45 MiB with the bot's cache limits, about 110 MiB with discord.js's defaults.
	assert.ok(heapGrowth < 80, `heap grew ${heapGrowth.toFixed(0)} MiB`);

	const help = await h.sandbox
		.dispatchCommand({ name: 'help', guildId: h.sandbox.guildIds[GUILDS - 1]! })
		.finalMessage();
	assert.ok(help.isEphemeral, 'a member of the last guild gets an answer');
	h.sandbox.assertNoViolations();
});
