import { MessageFlags, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';

export const definition = new SlashCommandBuilder()
	.setName('unlink')
	.setDescription('Forget the API key linked to your Discord account');

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const removed = await ctx.links.removeUserLink(interaction.user.id);
	await interaction.editReply(removed ? 'Unlinked: the bot no longer stores your key.' : 'You had no key linked.');
}
