import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttachmentBuilder, EmbedBuilder, MessageFlags, REST, Routes } from 'discord.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import type { DiscordSandbox, InteractionHandle } from '../../sandbox/index.js';
import { startHttpTestBot } from './http-test-bot.js';
import { startTestBot, TINY_PNG } from './test-bot.js';

/** The same assertions for both transports: a deferred ephemeral chart, then a public follow-up. */
async function assertChartFlow(sandbox: DiscordSandbox, handle: InteractionHandle): Promise<void> {
	const first = await handle.firstResponse();
	assert.equal(first.type, 5);
	assert.equal(first.flags, MessageFlags.Ephemeral);
	const message = await handle.finalMessage();
	assert.equal(message.isEphemeral, true);
	assert.equal(message.embeds[0]?.title, 'Last 7 days');
	assert.equal((message.embeds[0]?.image as { url: string }).url, message.attachments[0]?.url);
	assert.deepEqual(message.files[0]?.bytes, TINY_PNG);
	await handle.waitFor((h) => h.followUps.length === 1);
	const shared = sandbox.channelMessages(handle.channelId).filter((m) => m.interactionId === handle.id);
	assert.deepEqual(
		shared.map((m) => m.content),
		['shared'],
	);
	assert.equal(handle.callbackAttempts, 1);
	sandbox.assertNoViolations();
}

test('gateway mode (discord.js): the chart flow', async (t) => {
	const sandbox = await startDiscordSandbox({ heartbeatIntervalMs: 1000 });
	t.after(() => sandbox.close());
	const bot = await startTestBot(sandbox);
	t.after(() => bot.stop());
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		const embed = new EmbedBuilder().setTitle('Last 7 days').setImage('attachment://chart.png');
		await interaction.editReply({ embeds: [embed], files: [new AttachmentBuilder(TINY_PNG, { name: 'chart.png' })] });
		await interaction.followUp({ content: 'shared' });
	};
	await assertChartFlow(sandbox, sandbox.dispatchCommand({ name: 'stats' }));
	assert.deepEqual(bot.errors, []);
});

test('HTTP mode (signed POSTs, REST through @discordjs/rest): the same chart flow', async (t) => {
	const sandbox = await startDiscordSandbox();
	t.after(() => sandbox.close());
	const bot = await startHttpTestBot(sandbox.publicKeyHex);
	t.after(() => bot.stop());
	assert.equal((await sandbox.verifyInteractionsEndpoint(bot.url)).ok, true);
	sandbox.useInteractionsEndpoint(bot.url);
	const rest = new REST({ api: sandbox.apiUrl });
	const errors: unknown[] = [];
	bot.handle = async (interaction) => {
		const token = String(interaction.token);
		setImmediate(() => {
			const edit = rest.patch(Routes.webhookMessage(sandbox.applicationId, token, '@original'), {
				auth: false,
				body: { embeds: [{ title: 'Last 7 days', image: { url: 'attachment://chart.png' } }] },
				files: [{ name: 'chart.png', data: TINY_PNG }],
			});
			edit
				.then(() =>
					rest.post(Routes.webhook(sandbox.applicationId, token), { auth: false, body: { content: 'shared' } }),
				)
				.catch((error: unknown) => errors.push(error));
		});
		return { status: 200, body: { type: 5, data: { flags: MessageFlags.Ephemeral } } };
	};
	await assertChartFlow(sandbox, sandbox.dispatchCommand({ name: 'stats' }));
	assert.deepEqual(errors, []);
	assert.equal(sandbox.gatewaySessions().length, 0, 'no gateway connection was needed');
});
