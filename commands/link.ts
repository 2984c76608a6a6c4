import {
	MessageFlags,
	SlashCommandBuilder,
	type ChatInputCommandInteraction,
	type ModalSubmitInteraction,
} from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { replyIfCoolingDown } from '../src/bot/cooldown-reply.js';
import { keyModal, readKeyField } from '../src/bot/key-modal.js';
import { linkFailure } from '../src/bot/error-replies.js';
import { linkConfirmation } from '../src/bot/link-replies.js';

export const definition = new SlashCommandBuilder()
	.setName('link')
	.setDescription('Link your advertising API key to your Discord account (asked in a private form)');

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
	if (await replyIfCoolingDown(interaction, ctx, 'link')) return;
	// A modal must be the first response to its interaction: nothing may be deferred before it.
	await interaction.showModal(keyModal('link:submit', 'Link your API key'));
}

export async function onModal(interaction: ModalSubmitInteraction, ctx: BotContext): Promise<void> {
	await interaction.deferReply({ flags: MessageFlags.Ephemeral }); // verifying the key calls the network
	const info = await ctx.links.linkUser(interaction.user.id, readKeyField(interaction)).catch((error: unknown) => {
		throw linkFailure(error, 'link');
	});
	await interaction.editReply(linkConfirmation(info, 'your account'));
}
