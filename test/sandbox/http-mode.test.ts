import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, beforeEach, test } from 'node:test';
import { REST, Routes } from 'discord.js';
import { DISCORD_INTERACTIONS_USER_AGENT, startDiscordSandbox } from '../../sandbox/index.js';
import type { DiscordSandbox, InteractionHandle } from '../../sandbox/index.js';
import { listenOnLoopback } from '../stats-api/fault-server.js';
import { startHttpTestBot } from './http-test-bot.js';
import type { HttpTestBot } from './http-test-bot.js';
import { waitUntil } from './raw-gateway.js';
import { TINY_PNG } from './test-bot.js';

type Json = Record<string, unknown>;

let sandbox: DiscordSandbox;
let bot: HttpTestBot;
let rest: REST;

before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 2 });
	bot = await startHttpTestBot(sandbox.publicKeyHex);
	sandbox.useInteractionsEndpoint(bot.url);
	rest = new REST({ api: sandbox.apiUrl });
});

after(async () => {
	await bot.stop();
	await sandbox.close();
});

beforeEach(() => {
	sandbox.clearRecords();
	bot.acceptAnything = false;
	bot.handle = async () => ({ status: 500 });
});

/** POST /callback through @discordjs/rest, as an HTTP-mode bot acknowledges when it does not answer inline. */
function callback(interaction: Json, body: Json): Promise<unknown> {
	return rest.post(Routes.interactionCallback(String(interaction.id), String(interaction.token)), {
		body,
		auth: false,
	});
}

function editOriginal(interaction: Json, body: Json, files?: { name: string; data: Buffer }[]): Promise<unknown> {
	const route = Routes.webhookMessage(sandbox.applicationId, String(interaction.token), '@original');
	return rest.patch(route, { body, auth: false, ...(files ? { files } : {}) });
}

/** Runs `work` after the HTTP answer went out, as a bot does its REST calls after answering inline. */
function later(work: () => Promise<unknown>): void {
	setImmediate(() => void work().catch(() => undefined));
}

test('saving the URL: a signed PING gets PONG and a bad signature 401, so the check passes', async () => {
	const report = await sandbox.verifyInteractionsEndpoint(bot.url);
	assert.equal(report.ok, true, report.problems.join('; '));
	assert.deepEqual(report.ping, { status: 200, contentType: 'application/json', body: '{"type":1}', ok: true });
	assert.deepEqual(report.badSignature, { status: 401, ok: true });
	assert.equal(bot.received.length, 0, 'PINGs never reach the command handler');
});

test('saving the URL fails for an endpoint that accepts bad signatures or answers PING without JSON', async (t) => {
	bot.acceptAnything = true;
	const careless = await sandbox.verifyInteractionsEndpoint(bot.url);
	assert.equal(careless.ok, false);
	assert.deepEqual(careless.badSignature, { status: 200, ok: false });
	assert.match(careless.problems.join('\n'), /bad signature was answered 200/);
	const plain = await listenOnLoopback(createServer((_req, res) => res.writeHead(200).end('{"type":1}')));
	t.after(() => plain.close());
	const report = await sandbox.verifyInteractionsEndpoint(plain.url);
	assert.equal(report.ping.ok, false);
	assert.match(report.problems.join('\n'), /Content-Type/);
});

test('an interaction arrives as a signed POST with Discord headers; a reply in the HTTP answer is the message', async () => {
	bot.handle = async (interaction) => ({
		status: 200,
		body: { type: 4, data: { content: `hello ${(interaction.data as Json).name as string}`, flags: 64 } },
	});
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	const message = await handle.finalMessage();
	assert.equal(message.content, 'hello stats');
	assert.equal(message.isEphemeral, true);
	assert.deepEqual(handle.deliveredTo, [{ via: 'http', url: bot.url }]);
	assert.equal(handle.callbacks[0]?.via, 'http');
	assert.equal(handle.callbacks[0]?.status, 204);
	assert.equal(handle.callbackAttempts, 1);
	assert.equal(bot.lastHeaders?.['user-agent'], DISCORD_INTERACTIONS_USER_AGENT);
	assert.equal(bot.lastHeaders?.['content-type'], 'application/json');
	assert.match(String(bot.lastHeaders?.['x-signature-timestamp']), /^\d{10}$/);
	assert.equal(bot.received.at(-1)?.id, handle.id);
	sandbox.assertNoViolations();
});

test('a defer in the HTTP answer followed at once by a multipart edit: the edit waits for the defer', async () => {
	bot.handle = async (interaction) => {
		later(() =>
			editOriginal(interaction, { embeds: [{ title: 'chart', image: { url: 'attachment://chart.png' } }] }, [
				{ name: 'chart.png', data: TINY_PNG },
			]),
		);
		return { status: 200, body: { type: 5, data: { flags: 64 } } };
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	const first = await handle.firstResponse();
	assert.equal(first.type, 5);
	const message = await handle.finalMessage();
	assert.equal(message.isEphemeral, true);
	assert.equal(message.attachments[0]?.filename, 'chart.png');
	assert.deepEqual(message.files[0]?.bytes, TINY_PNG);
	assert.equal(handle.edits[0]?.status, 200);
	sandbox.assertNoViolations();
});

test('202 without a body after POST /callback: the REST callback is the first response', async () => {
	bot.handle = async (interaction) => {
		await callback(interaction, { type: 5 });
		later(() => editOriginal(interaction, { content: 'done' }));
		return { status: 202 };
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	assert.equal((await handle.finalMessage()).content, 'done');
	assert.equal(handle.callbacks[0]?.via, 'rest');
	await handle.httpSettled;
	assert.equal(handle.http?.status, 202);
	assert.equal(handle.callbackAttempts, 1);
	sandbox.assertNoViolations();
});

test('an answer in the HTTP response and another by POST /callback: the second gets 40060', async () => {
	bot.handle = async (interaction) => {
		later(() => callback(interaction, { type: 4, data: { content: 'again' } }));
		return { status: 200, body: { type: 4, data: { content: 'first' } } };
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	await handle.waitFor((h) => h.callbacks.length === 2);
	assert.deepEqual(handle.callbacks.map((c) => c.status).sort(), [204, 400]);
	assert.equal(handle.callbacks.find((c) => c.status === 400)?.errorCode, 40060);
	assert.equal(handle.callbackAttempts, 2);
});

test('an HTTP answer Discord would refuse (embed title of 300) is recorded as 50035 and acknowledges nothing', async () => {
	bot.handle = async () => ({ status: 200, body: { type: 4, data: { embeds: [{ title: 'x'.repeat(300) }] } } });
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	const first = await handle.firstResponse();
	assert.equal(first.errorCode, 50035);
	assert.equal(handle.callbackType, undefined);
	assert.ok(sandbox.violations[0]?.problems.some((p) => p.path === 'data.embeds.0.title'));
	assert.throws(() => sandbox.assertNoViolations(), /data\.embeds\.0\.title/);
});

test('an answer that is not JSON, or a failing endpoint, is recorded as a violation', async () => {
	bot.handle = async () => ({ status: 200, raw: { contentType: 'text/plain', bytes: Buffer.from('ok') } });
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	assert.equal((await handle.firstResponse()).errorCode, 50035);
	bot.handle = async () => ({ status: 500 });
	const failed = sandbox.dispatchCommand({ name: 'stats' });
	await failed.httpSettled;
	assert.equal(failed.http?.status, 500);
	assert.equal(failed.callbackAttempts, 0);
	assert.throws(() => sandbox.assertNoViolations(), /CONTENT_TYPE_INVALID[\s\S]*endpoint answered 500/);
});

test('an edit after a bare 202 (no callback at all) gets 10015 Unknown Webhook', async () => {
	let status = 0;
	bot.handle = async (interaction) => {
		later(() =>
			editOriginal(interaction, { content: 'x' }).catch((error: { status: number }) => {
				status = error.status;
			}),
		);
		return { status: 202 };
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	await handle.waitFor((h) => h.edits.length === 1);
	assert.equal(handle.edits[0]?.errorCode, 10015);
	await waitUntil(() => status === 404);
});

test('a modal in the HTTP answer, then its submit answered inline', async () => {
	bot.handle = async (interaction) => {
		if (interaction.type === 2) {
			const input = { type: 4, custom_id: 'key', label: 'API key', style: 1 };
			return {
				status: 200,
				body: { type: 9, data: { custom_id: 'link', title: 'Link', components: [{ type: 1, components: [input] }] } },
			};
		}
		return { status: 200, body: { type: 4, data: { content: 'linked', flags: 64 } } };
	};
	const command = sandbox.dispatchCommand({ name: 'link' });
	assert.equal((await command.firstResponse()).type, 9);
	const submit = sandbox.dispatchModalSubmit({ customId: 'link', fields: { key: 'abcd' } });
	assert.equal((await submit.finalMessage()).content, 'linked');
	sandbox.assertNoViolations();
});

test('a multipart HTTP answer carries a file', async () => {
	bot.handle = async () => {
		const form = new FormData();
		form.append('payload_json', JSON.stringify({ type: 4, data: { content: 'chart', attachments: [{ id: '0' }] } }));
		form.append('files[0]', new Blob([TINY_PNG], { type: 'image/png' }), 'chart.png');
		const response = new Response(form);
		return {
			status: 200,
			raw: {
				contentType: response.headers.get('content-type') ?? '',
				bytes: Buffer.from(await response.arrayBuffer()),
			},
		};
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	const message = await handle.finalMessage();
	assert.equal(message.attachments[0]?.filename, 'chart.png');
	sandbox.assertNoViolations();
});

test('forged, unsigned and replayed-with-altered-body requests get 401 and reach no handler', async () => {
	let ran = 0;
	bot.handle = async () => {
		ran++;
		return { status: 200, body: { type: 4, data: { content: 'ok' } } };
	};
	const genuine = sandbox.dispatchCommand({ name: 'stats' });
	await genuine.finalMessage();
	assert.equal(ran, 1);
	const forged = await sandbox.forgeInteraction({ name: 'stats' });
	const unsigned = await sandbox.sendUnsignedInteraction({ name: 'stats' });
	const replayed = await sandbox.replayInteraction(genuine);
	assert.deepEqual([forged.status, unsigned.status, replayed.status], [401, 401, 401]);
	assert.equal(ran, 1, 'no handler ran for them');
	assert.equal(forged.handle.responses.length + unsigned.handle.responses.length, 0);
	assert.equal(genuine.callbackAttempts, 1, 'the replay changed nothing on the genuine interaction');
	bot.acceptAnything = true;
	assert.equal((await sandbox.forgeInteraction({ name: 'stats' })).status, 200, 'a careless endpoint is detected');
});

test('several endpoint URLs are taken in turn, like a load balancer over identical workers', async (t) => {
	const second = await startHttpTestBot(sandbox.publicKeyHex);
	t.after(() => second.stop());
	t.after(() => sandbox.useInteractionsEndpoint(bot.url));
	sandbox.useInteractionsEndpoint([bot.url, second.url]);
	const answer = async () => ({ status: 200, body: { type: 4, data: { content: 'ok' } } });
	bot.handle = answer;
	second.handle = answer;
	const before = bot.received.length;
	const handles: InteractionHandle[] = [];
	for (let i = 0; i < 4; i++) {
		const handle = sandbox.dispatchCommand({ name: 'stats' });
		await handle.finalMessage();
		handles.push(handle);
	}
	assert.deepEqual(
		handles.map((h) => (h.deliveredTo[0]?.via === 'http' ? h.deliveredTo[0].url : '')),
		[bot.url, second.url, bot.url, second.url],
	);
	assert.equal(bot.received.length - before, 2);
	assert.equal(second.received.length, 2);
});

test('the first-response window holds for HTTP answers: a late one gets 10062', async (t) => {
	const strict = await startDiscordSandbox({ interactionTimeoutMs: 200 });
	t.after(() => strict.close());
	const slow = await startHttpTestBot(strict.publicKeyHex);
	t.after(() => slow.stop());
	strict.useInteractionsEndpoint(slow.url);
	slow.handle = async () => {
		await new Promise((resolve) => setTimeout(resolve, 300));
		return { status: 200, body: { type: 5 } };
	};
	const handle = strict.dispatchCommand({ name: 'stats' });
	const first = await handle.firstResponse();
	assert.equal(first.status, 404);
	assert.equal(first.errorCode, 10062);
	assert.equal(handle.callbackType, undefined);
	const slowRest = new REST({ api: strict.apiUrl });
	slow.handle = async (interaction) => {
		await new Promise((resolve) => setTimeout(resolve, 300));
		const route = Routes.interactionCallback(String(interaction.id), String(interaction.token));
		await slowRest.post(route, { auth: false, body: { type: 5 } }).catch(() => undefined);
		return { status: 202 };
	};
	const viaRest = strict.dispatchCommand({ name: 'stats' });
	const late = await viaRest.firstResponse();
	assert.deepEqual([late.via, late.errorCode], ['rest', 10062]);
});
