import { MessageFlags, type RepliableInteraction } from 'discord.js';
import type { BotContext } from './context.js';
import { cooldownMessage } from './error-replies.js';

/** Answers "try again in N s" and returns true while the member's cooldown for `action` runs. */
export async function replyIfCoolingDown(
	interaction: RepliableInteraction,
	ctx: BotContext,
	action: string,
): Promise<boolean> {
	const wait = ctx.cooldowns.take(interaction.user.id, action);
	if (wait === 0) return false;
	await interaction.reply({ content: cooldownMessage(wait), flags: MessageFlags.Ephemeral });
	return true;
}
