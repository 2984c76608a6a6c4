import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBotRest, postChannelMessage } from '../../src/discord/bot-rest.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';

describe('posting to a channel over REST, without a gateway', () => {
	let sandbox: DiscordSandbox;
	before(async () => {
		sandbox = await startDiscordSandbox({ guildCount: 1 });
	});
	after(async () => {
		sandbox.assertNoViolations();
		await sandbox.close();
	});

	it('posts text and a file as multipart, pinging nobody, with a nonce passed through', async () => {
		const rest = createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token });
		const channelId = sandbox.guilds[0]!.defaultChannelId;
		const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
		const message = await postChannelMessage(
			rest,
			channelId,
			{ content: 'Weekly report for @everyone', files: [{ name: 'chart.png', data: png }] },
			{ nonce: 'report-42-2026-11-23' },
		);
		assert.equal(sandbox.gatewaySessions().length, 0);
		const [stored] = sandbox.channelMessages(channelId);
		assert.equal(stored?.id, message.id);
		assert.equal(stored?.content, 'Weekly report for @everyone');
		assert.equal(stored?.files[0]?.name, 'chart.png');
		assert.ok(stored?.files[0]?.bytes.equals(png));
		assert.deepEqual(message.mentions, []);
		assert.equal(message.mention_everyone, false);
	});

	it('refuses a bad token with the REST error, never echoing the token', async () => {
		const token = 'not.the.token';
		const rest = createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: token });
		await assert.rejects(
			postChannelMessage(rest, sandbox.guilds[0]!.defaultChannelId, { content: 'x' }),
			(error: Error) => !error.message.includes(token),
		);
		sandbox.clearRecords();
	});
});
