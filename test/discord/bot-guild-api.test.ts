import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
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
