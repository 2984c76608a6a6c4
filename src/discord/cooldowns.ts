import type { CooldownGate } from '../store/cooldowns.js';
import { memberTranslator } from '../i18n/index.js';
import type { RepliableInteraction } from './interaction.js';

/** Answers "try again in N s" and returns true while the member's cooldown for `action` runs. */
export async function replyIfCoolingDown(
	interaction: RepliableInteraction,
	ctx: { cooldowns: CooldownGate },
	action: string,
): Promise<boolean> {
	const wait = await ctx.cooldowns.take(interaction.userId, action);
	if (wait === 0) return false;
	await interaction.reply({ content: memberTranslator(interaction)('errors.cooldown', { seconds: wait }) }, 'private');
	return true;
}
