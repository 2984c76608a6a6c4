import type { BotContext } from './context.js';
import { memberTranslator } from './member-language.js';
import type { RepliableInteraction } from './types.js';

/** Answers "try again in N s" and returns true while the member's cooldown for `action` runs. */
export async function replyIfCoolingDown(
	interaction: RepliableInteraction,
	ctx: BotContext,
	action: string,
): Promise<boolean> {
	const wait = await ctx.cooldowns.take(interaction.userId, action);
	if (wait === 0) return false;
	await interaction.reply({ content: memberTranslator(interaction)('errors.cooldown', { seconds: wait }) }, 'private');
	return true;
}
