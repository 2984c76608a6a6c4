import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { DiscordAPIError, EmbedBuilder, MessageFlags } from 'discord.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import type { DiscordSandbox, InteractionHandle } from '../../sandbox/index.js';
import { sleep, startTestBot, TINY_PNG } from './test-bot.js';
import type { TestBot } from './test-bot.js';

let sandbox: DiscordSandbox;
let bot: TestBot;

before(async () => {
	sandbox = await startDiscordSandbox({ interactionTimeoutMs: 200, heartbeatIntervalMs: 1000 });
	bot = await startTestBot(sandbox);
});

after(async () => {
	await bot.stop();
	await sandbox.close();
});

beforeEach(() => {
	sandbox.clearRecords();
	bot.errors.length = 0;
	bot.handle = async () => undefined;
});

/** Dispatches a command the test bot ignores, so the test can answer it raw with fetch. */
function dispatchUnanswered(): InteractionHandle {
	return sandbox.dispatchCommand({ name: 'raw' });
}

function callbackUrl(handle: InteractionHandle): string {
	return `${sandbox.apiUrl}/v10/interactions/${handle.id}/${handle.token}/callback`;
}

function postJson(url: string, body: unknown, method = 'POST'): Promise<Response> {
	return fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

test('a callback after the first-response window gets 10062 Unknown interaction', async () => {
	bot.handle = async (interaction) => {
		await sleep(300);
		if (interaction.isChatInputCommand()) await interaction.deferReply();
	};
	const handle = sandbox.dispatchCommand({ name: 'slow' });
	const first = await handle.firstResponse();
	assert.equal(first.status, 404);
	assert.equal(first.errorCode, 10062);
	assert.ok(first.at >= 200);
	await waitUntil(() => bot.errors.length === 1);
	assert.equal((bot.errors[0] as DiscordAPIError).code, 10062);
});

test('an edit or follow-up before any callback gets 10015 Unknown Webhook', async () => {
	const handle = dispatchUnanswered();
	const base = `${sandbox.apiUrl}/v10/webhooks/${sandbox.applicationId}/${handle.token}`;
	const edit = await postJson(`${base}/messages/%40original`, { content: 'x' }, 'PATCH');
	assert.equal(edit.status, 404);
	assert.equal(((await edit.json()) as { code: number }).code, 10015);
	const followUp = await postJson(`${base}?wait=true`, { content: 'x' });
	assert.equal(((await followUp.json()) as { code: number }).code, 10015);
});

test('an embed title of 300 characters is refused with 50035 and recorded', async () => {
	const handle = dispatchUnanswered();
	const response = await postJson(callbackUrl(handle), { type: 4, data: { embeds: [{ title: 'x'.repeat(300) }] } });
	assert.equal(response.status, 400);
	const body = (await response.json()) as { code: number; errors: Record<string, unknown> };
	assert.equal(body.code, 50035);
	assert.deepEqual(Object.keys(body.errors), ['data']);
	assert.equal(sandbox.violations.length, 1);
	assert.ok(sandbox.violations[0]?.problems.some((p) => p.path === 'data.embeds.0.title'));
	assert.throws(() => sandbox.assertNoViolations(), /data\.embeds\.0\.title/);
	assert.equal(handle.callbackType, undefined, 'a refused callback does not acknowledge the interaction');
});

test('a description over 4096 code points sent through discord.js comes back as DiscordAPIError 50035', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		await interaction.editReply({ embeds: [{ description: '😀'.repeat(4097) }] });
	};
	sandbox.dispatchCommand({ name: 'stats' });
	await waitUntil(() => bot.errors.length === 1);
	assert.equal((bot.errors[0] as DiscordAPIError).code, 50035);
	assert.ok(sandbox.violations[0]?.problems.some((p) => p.path === 'embeds.0.description'));
});

test('4096 astral characters count as 4096, not as 8192 UTF-16 units', async () => {
	bot.handle = async (interaction) => {
		if (interaction.isChatInputCommand()) await interaction.reply({ embeds: [{ description: '😀'.repeat(4096) }] });
	};
	await sandbox.dispatchCommand({ name: 'stats' }).finalMessage();
	sandbox.assertNoViolations();
});

test('a button custom_id over 100 characters is refused', async () => {
	const handle = dispatchUnanswered();
	const button = { type: 2, style: 1, label: 'Go', custom_id: 'b'.repeat(101) };
	const response = await postJson(callbackUrl(handle), {
		type: 4,
		data: { components: [{ type: 1, components: [button] }] },
	});
	assert.equal(response.status, 400);
	assert.ok(sandbox.violations[0]?.problems.some((p) => p.path === 'data.components.0.components.0.custom_id'));
});

test('the OpenAPI schema catches what the limit table does not (a string where an integer belongs)', async () => {
	const handle = dispatchUnanswered();
	const response = await postJson(callbackUrl(handle), { type: 5, data: { flags: 'ephemeral' } });
	assert.equal(response.status, 400);
	assert.ok(sandbox.violations[0]?.problems.some((p) => p.source === 'openapi'));
});

test('an embed image naming no uploaded file is refused and recorded', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply();
		await interaction.editReply({
			embeds: [new EmbedBuilder().setTitle('chart').setImage('attachment://missing.png')],
			files: [{ attachment: TINY_PNG, name: 'chart.png' }],
		});
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	await waitUntil(() => bot.errors.length === 1);
	assert.equal((bot.errors[0] as DiscordAPIError).code, 50035);
	assert.equal(handle.edits[0]?.status, 400);
	assert.ok(sandbox.violations[0]?.problems.some((p) => p.code === 'ATTACHMENT_NOT_FOUND'));
	assert.equal(handle.original?.thinking, true, 'the refused edit left the thinking message as it was');
});

test('an unknown route answers 404 in Discord shape and is recorded', async () => {
	const response = await fetch(`${sandbox.apiUrl}/v10/guilds/1/audit-logs`, {
		headers: { authorization: `Bot ${sandbox.token}` },
	});
	assert.equal(response.status, 404);
	assert.deepEqual(await response.json(), { message: '404: Not Found', code: 0 });
	assert.deepEqual(
		sandbox.unknownRequests.map((r) => `${r.method} ${r.path}`),
		['GET /guilds/1/audit-logs'],
	);
	assert.throws(() => sandbox.assertNoViolations(), /route unknown/);
});

test('authenticated routes answer 401 without the bot token', async () => {
	const missing = await fetch(`${sandbox.apiUrl}/v10/users/%40me`);
	assert.equal(missing.status, 401);
	const wrong = await fetch(`${sandbox.apiUrl}/v10/users/%40me`, { headers: { authorization: 'Bot nope' } });
	assert.equal(wrong.status, 401);
	const right = await fetch(`${sandbox.apiUrl}/v10/users/%40me`, {
		headers: { authorization: `Bot ${sandbox.token}` },
	});
	assert.equal(((await right.json()) as { id: string }).id, sandbox.botUserId);
});

test('a follow-up after an unedited ephemeral defer replaces the thinking message and stays ephemeral', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		await interaction.followUp({ content: 'first' });
		await interaction.followUp({ content: 'second' });
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	await handle.waitFor((h) => h.followUps.length === 2);
	assert.equal(handle.original?.content, 'first');
	assert.equal(handle.original?.isEphemeral, true);
	assert.equal(handle.followUps[0]?.messageId, handle.original?.id);
	assert.notEqual(handle.followUps[1]?.messageId, handle.original?.id);
	const posted = sandbox.channelMessages(handle.channelId).filter((m) => m.interactionId === handle.id);
	assert.deepEqual(
		posted.map((m) => m.content),
		['second'],
		'the second, non-ephemeral follow-up is public',
	);
	sandbox.assertNoViolations();
});

test('withResponse answers with the interaction callback resource', async () => {
	let responseMessageId: string | undefined;
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		const response = await interaction.reply({ content: 'hi', withResponse: true });
		responseMessageId = response.resource?.message?.id;
	};
	const message = await sandbox.dispatchCommand({ name: 'stats' }).finalMessage();
	await waitUntil(() => responseMessageId !== undefined);
	assert.equal(responseMessageId, message.id);
	sandbox.assertNoViolations();
});

test('a command in a DM carries a user and a DM channel, and its permissions can be overridden in guilds', async () => {
	const seen: string[] = [];
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		seen.push(
			`${interaction.inGuild()}:${interaction.user.id}:${interaction.memberPermissions?.has('ManageGuild') ?? '-'}`,
		);
		await interaction.reply({ content: 'ok', flags: MessageFlags.Ephemeral });
	};
	await sandbox.dispatchCommand({ name: 'stats', guildId: null, userId: '123456789012345678' }).finalMessage();
	await sandbox.dispatchCommand({ name: 'stats', permissions: 1n << 5n }).finalMessage();
	await sandbox.dispatchCommand({ name: 'stats' }).finalMessage();
	assert.deepEqual(seen, [
		'false:123456789012345678:-',
		`true:${sandbox.defaultUserId}:true`,
		`true:${sandbox.defaultUserId}:false`,
	]);
	assert.deepEqual(bot.errors, []);
});

async function waitUntil(condition: () => boolean, timeoutMs = 3000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await sleep(10);
	}
}
