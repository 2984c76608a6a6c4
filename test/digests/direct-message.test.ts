// GuildApi.sendDirectMessage with the real REST client against the stand-in: the DM channel is opened with
// POST /users/@me/channels and kept, files travel with the embed, and Discord's 50007 becomes a typed error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import { DirectMessagesClosedError } from '../../src/errors.js';
import type { GuildApi } from '../../src/guild-api.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { TINY_PNG } from '../sandbox/test-bot.js';

const MEMBER = '300000000000000051';
const CLOSED = '300000000000000052';

let sandbox: DiscordSandbox;
let api: GuildApi;

before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 1, channelsPerGuild: 1 });
	api = botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }));
});
after(async () => sandbox.close());

test('two DMs to a member land in one DM channel, with the chart attached', async () => {
	await api.sendDirectMessage(MEMBER, { content: 'first' });
	await api.sendDirectMessage(MEMBER, {
		content: 'second',
		embeds: [{ title: 'chart', image: { url: 'attachment://chart.png' } }],
		files: [{ name: 'chart.png', data: TINY_PNG, contentType: 'image/png' }],
	});
	const sent = sandbox.directMessages(MEMBER);
	assert.deepEqual(
		sent.map((message) => message.content),
		['first', 'second'],
	);
	assert.equal(sent[0]!.channelId, sent[1]!.channelId);
	assert.equal(sent[0]!.guildId, null);
	assert.equal(sent[1]!.attachments.length, 1);
	sandbox.assertNoViolations();
});

test('a member who does not accept DMs: 403 50007 becomes DirectMessagesClosedError, and nothing is sent', async () => {
	sandbox.refuseDirectMessages(CLOSED);
	await assert.rejects(api.sendDirectMessage(CLOSED, { content: 'hello' }), DirectMessagesClosedError);
	assert.deepEqual(sandbox.directMessages(CLOSED), []);
	const refusal = sandbox.rejections.at(-1);
	assert.equal(refusal?.status, 403);
	assert.equal(refusal?.code, 50007);
	assert.equal(refusal?.message, 'Cannot send messages to this user');
});
