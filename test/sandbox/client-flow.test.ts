import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
	ActionRowBuilder,
	AttachmentBuilder,
	ButtonBuilder,
	ButtonStyle,
	DiscordAPIError,
	EmbedBuilder,
	MessageFlags,
	ModalBuilder,
	REST,
	Routes,
	SlashCommandBuilder,
	TextInputBuilder,
	TextInputStyle,
} from 'discord.js';
import type { ModalActionRowComponentBuilder } from 'discord.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import type { DiscordSandbox } from '../../sandbox/index.js';
import { startTestBot, TINY_PNG } from './test-bot.js';
import type { TestBot } from './test-bot.js';

let sandbox: DiscordSandbox;
let bot: TestBot;

before(async () => {
	sandbox = await startDiscordSandbox({ guildCount: 2, heartbeatIntervalMs: 1000 });
	bot = await startTestBot(sandbox);
});

after(async () => {
	await bot.stop();
	await sandbox.close();
});

test('a command registered through @discordjs/rest is listed with an id', async () => {
	const rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.token);
	const definition = new SlashCommandBuilder()
		.setName('stats')
		.setDescription('Show statistics')
		.addIntegerOption((option) => option.setName('days').setDescription('Range in days'));
	await rest.put(Routes.applicationCommands(sandbox.applicationId), { body: [definition.toJSON()] });
	await rest.put(Routes.applicationCommands(sandbox.applicationId), { body: [definition.toJSON()] });
	const registered = sandbox.registeredCommands();
	assert.equal(registered.length, 1);
	assert.equal(registered[0]?.name, 'stats');
	assert.match(String(registered[0]?.id), /^\d+$/);
	sandbox.assertNoViolations();
});

test('a deferred ephemeral command edited with an embed and a PNG shows the chart from the sandbox', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		const days = interaction.options.getInteger('days') ?? 7;
		const embed = new EmbedBuilder().setTitle(`Last ${days} days`).setImage('attachment://chart.png');
		await interaction.editReply({ embeds: [embed], files: [new AttachmentBuilder(TINY_PNG, { name: 'chart.png' })] });
	};
	const handle = sandbox.dispatchCommand({ name: 'stats', options: [{ name: 'days', type: 4, value: 30 }] });
	const first = await handle.firstResponse();
	assert.equal(first.type, 5);
	assert.equal(first.flags, MessageFlags.Ephemeral);
	assert.ok(first.at < 3000);
	const message = await handle.finalMessage();
	assert.equal(message.isEphemeral, true);
	assert.equal(message.embeds[0]?.title, 'Last 30 days');
	assert.equal(message.attachments[0]?.filename, 'chart.png');
	const image = message.embeds[0]?.image as { url: string; width: number };
	assert.equal(image.url, message.attachments[0]?.url);
	assert.equal(image.width, 1);
	const served = Buffer.from(await (await fetch(image.url)).arrayBuffer());
	assert.deepEqual(served, TINY_PNG);
	assert.deepEqual(message.files[0]?.bytes, TINY_PNG);
	assert.equal(message.files[0]?.contentType, 'image/png');
	assert.equal(sandbox.channelMessages(handle.channelId).length, 0, 'an ephemeral reply is not posted in the channel');
	sandbox.assertNoViolations();
	assert.deepEqual(bot.errors, []);
});

test('a modal shown as the first response is answered after its submit', async () => {
	bot.handle = async (interaction) => {
		if (interaction.isChatInputCommand()) {
			const input = new TextInputBuilder()
				.setCustomId('key')
				.setLabel('API key')
				.setStyle(TextInputStyle.Short)
				.setMaxLength(4000);
			const row = new ActionRowBuilder<ModalActionRowComponentBuilder>().addComponents(input);
			await interaction.showModal(new ModalBuilder().setCustomId('link:submit').setTitle('Link').addComponents(row));
		} else if (interaction.isModalSubmit()) {
			const key = interaction.fields.getTextInputValue('key');
			await interaction.reply({ content: `Linked …${key.slice(-4)}`, flags: MessageFlags.Ephemeral });
		}
	};
	const command = sandbox.dispatchCommand({ name: 'link' });
	const modal = await command.firstResponse();
	assert.equal(modal.type, 9);
	assert.equal(modal.data.custom_id, 'link:submit');
	await assert.rejects(command.finalMessage(), /callback type 9/);
	const submit = sandbox.dispatchModalSubmit({ customId: 'link:submit', fields: { key: 'secret-abcd' } });
	const reply = await submit.finalMessage();
	assert.equal(reply.content, 'Linked …abcd');
	assert.equal(reply.isEphemeral, true);
	sandbox.assertNoViolations();
	assert.deepEqual(bot.errors, []);
});

test('a button press is answered with a public follow-up that lands in the channel', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isButton()) return;
		await interaction.deferReply();
		await interaction.followUp({ content: `shared by ${interaction.user.id} via ${interaction.customId}` });
	};
	const handle = sandbox.dispatchButton({ customId: 'stats:share:1' });
	const message = await handle.finalMessage();
	assert.equal(message.content, `shared by ${sandbox.defaultUserId} via stats:share:1`);
	assert.equal(message.isEphemeral, false);
	assert.equal(handle.followUps.length, 1, 'the follow-up replaced the thinking message');
	assert.ok(sandbox.channelMessages(handle.channelId).includes(message));
	sandbox.assertNoViolations();
});

test('a button on a stored message can update that message in place', async () => {
	bot.handle = async (interaction) => {
		if (interaction.isChatInputCommand()) {
			const button = new ButtonBuilder().setCustomId('stats:refresh').setLabel('Refresh').setStyle(ButtonStyle.Primary);
			await interaction.reply({
				content: 'v1',
				components: [new ActionRowBuilder<ButtonBuilder>().addComponents(button)],
			});
		} else if (interaction.isButton()) {
			await interaction.update({ content: 'v2' });
		}
	};
	const original = await sandbox.dispatchCommand({ name: 'stats' }).finalMessage();
	const press = sandbox.dispatchButton({ customId: 'stats:refresh', messageId: original.id });
	const updated = await press.finalMessage();
	assert.equal(updated, original);
	assert.equal(updated.content, 'v2');
	assert.equal(updated.components.length, 1, 'an update without components keeps them');
	sandbox.assertNoViolations();
	assert.deepEqual(bot.errors, []);
});

test('editing with new files drops the old one, a text-only edit keeps it', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.reply({ content: 'one', files: [new AttachmentBuilder(TINY_PNG, { name: 'a.png' })] });
		await interaction.editReply({ content: 'two' });
		await interaction.editReply({ files: [new AttachmentBuilder(TINY_PNG, { name: 'b.png' })] });
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	await handle.waitFor((h) => h.edits.length === 2);
	assert.equal(
		handle.edits.every((edit) => edit.status === 200),
		true,
	);
	const message = handle.original!;
	assert.equal(message.content, 'two');
	assert.deepEqual(
		message.attachments.map((a) => a.filename),
		['b.png'],
	);
	sandbox.assertNoViolations();
});

test('a second callback for one interaction is refused with 40060', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply();
		// Reaches the REST layer twice: discord.js's own guard is bypassed by resetting its flag.
		Object.assign(interaction, { deferred: false, replied: false });
		await interaction.reply({ content: 'again' });
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	await handle.waitFor((h) => h.callbacks.length === 2);
	assert.equal(handle.callbacks[1]?.status, 400);
	assert.equal(handle.callbacks[1]?.errorCode, 40060);
	await waitUntil(() => bot.errors.length === 1);
	assert.ok(bot.errors[0] instanceof DiscordAPIError);
	assert.equal((bot.errors[0] as DiscordAPIError).code, 40060);
	bot.errors.length = 0;
	sandbox.clearRecords();
});

test('after a dropped connection (4000) the client resumes and the next command is answered', async () => {
	bot.handle = async (interaction) => {
		if (interaction.isChatInputCommand()) await interaction.reply({ content: 'pong' });
	};
	const identifies = sandbox.identifyCount;
	sandbox.dropConnection(4000);
	const whileDown = sandbox.dispatchCommand({ name: 'ping' });
	await sandbox.waitForResume();
	assert.equal(sandbox.identifyCount, identifies, 'resumed, not identified again');
	assert.equal((await whileDown.finalMessage()).content, 'pong', 'the dispatch sent while down was replayed');
	const after = sandbox.dispatchCommand({ name: 'ping' });
	assert.equal((await after.finalMessage()).content, 'pong');
	sandbox.assertNoViolations();
	assert.deepEqual(bot.errors, []);
});

async function waitUntil(condition: () => boolean, timeoutMs = 3000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

test('a forgotten interaction leaves nothing behind: its messages, their files and its token are gone', async () => {
	bot.handle = async (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		await interaction.editReply({ files: [new AttachmentBuilder(TINY_PNG, { name: 'chart.png' })] });
	};
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	const message = await handle.finalMessage();
	const url = message.attachments[0]!.url;
	assert.equal((await fetch(url)).status, 200);
	assert.ok(sandbox.dispatchedInteractions.includes(handle));

	sandbox.forgetInteraction(handle);
	assert.equal((await fetch(url)).status, 404);
	assert.ok(!sandbox.dispatchedInteractions.includes(handle));
	const rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.token);
	await assert.rejects(
		rest.patch(Routes.webhookMessage(sandbox.applicationId, handle.token, '@original'), { body: { content: 'late' } }),
		// What Discord answers for a token it no longer knows.
		{ status: 404, code: 10015 },
	);
	assert.deepEqual(bot.errors, []);
});
