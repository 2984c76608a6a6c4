import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { botGuildApi, createBotRest, GUILD_NAME_TTL_MS } from '../../src/discord/bot-rest.js';
import { ChannelRefusedError } from '../../src/errors.js';

interface Received {
	url: string;
	authorization: string;
	body: string;
}

const received: Received[] = [];
let answer: { status: number; body: object } = { status: 200, body: {} };
const server = createServer((request: IncomingMessage, response) => {
	const chunks: Buffer[] = [];
	request.on('data', (chunk: Buffer) => chunks.push(chunk));
	request.on('end', () => {
		received.push({
			url: request.url ?? '',
			authorization: request.headers.authorization ?? '',
			body: Buffer.concat(chunks).toString('latin1'),
		});
		response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
	});
});
let apiUrl = '';
before(async () => {
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const message = {
	content: 'Daily report',
	embeds: [{ title: 'acme', image: { url: 'attachment://chart.png' } }],
	files: [{ name: 'chart.png', data: Buffer.from('PNGDATA') }],
};
const NONCE = 'abc123abc123abc123abc123a';
const guildApi = () => botGuildApi(createBotRest({ discordApiUrl: apiUrl, discordToken: 'bot-token' }));

describe('posting a report over REST', () => {
	test('sends the embed, the chart, the nonce and enforce_nonce with the bot token', async () => {
		answer = { status: 200, body: { id: '1', channel_id: '42' } };
		await guildApi().postMessage('42', message, { nonce: NONCE });
		const [request] = received.splice(0);
		assert.ok(request);
		assert.equal(request.url, '/v10/channels/42/messages');
		assert.equal(request.authorization, 'Bot bot-token');
		assert.match(request.body, /"nonce":"abc123abc123abc123abc123a"/);
		assert.match(request.body, /"enforce_nonce":true/);
		assert.match(request.body, /"allowed_mentions":\{"parse":\[\]\}/);
		assert.match(request.body, /filename="chart.png"/);
		assert.match(request.body, /PNGDATA/);
	});

	test("Discord's refusals become ChannelRefusedError with the reason, which pauses the report", async () => {
		const api = guildApi();
		for (const [status, code, reason] of [
			[403, 50_013, 'missingPermissions'],
			[403, 50_001, 'missingPermissions'],
			[404, 10_003, 'channelGone'],
		] as const) {
			answer = { status, body: { message: 'no', code } };
			const error = await api.postMessage('42', message, { nonce: NONCE }).then(
				() => assert.fail('expected a rejection'),
				(thrown: unknown) => thrown,
			);
			assert.ok(error instanceof ChannelRefusedError);
			assert.equal(error.reason, reason);
		}
		assert.equal(received.splice(0).length, 3, 'no retry');
	});
});

describe("reading a server's name for chart titles", () => {
	test('asks GET /guilds/{id} with the bot token once, then answers from the cache for an hour', async () => {
		let now = 1_000_000;
		const api = botGuildApi(createBotRest({ discordApiUrl: apiUrl, discordToken: 'bot-token' }), { now: () => now });
		answer = { status: 200, body: { id: '77', name: 'Growth Club' } };
		const [first, concurrent] = await Promise.all([api.guildName('77'), api.guildName('77')]);
		assert.equal(first, 'Growth Club');
		assert.equal(concurrent, 'Growth Club');
		const [request, ...others] = received.splice(0);
		assert.equal(request?.url, '/v10/guilds/77');
		assert.equal(request?.authorization, 'Bot bot-token');
		assert.equal(others.length, 0, 'concurrent readers share one call');

		answer = { status: 200, body: { id: '77', name: 'Renamed Club' } };
		now += GUILD_NAME_TTL_MS - 1;
		assert.equal(await api.guildName('77'), 'Growth Club', 'cached');
		assert.equal(received.splice(0).length, 0);
		now += 2;
		assert.equal(await api.guildName('77'), 'Renamed Club', 'read again after the TTL');
		assert.equal(received.splice(0).length, 1);
	});

	test('a server Discord cannot describe has no name, and is not asked again at once', async () => {
		const api = guildApi();
		answer = { status: 404, body: { message: 'Unknown Guild', code: 10_004 } };
		assert.equal(await api.guildName('404'), null);
		assert.equal(await api.guildName('404'), null);
		assert.equal(received.splice(0).length, 1);
	});
});
