import type { BotContext } from '../src/discord/context.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction } from '../src/discord/interaction.js';
import { unlink } from '../src/stats/link-actions.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'unlink';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	await interaction.defer('private');
	const { removed } = await unlink(ctx, interaction.userId);
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: t(removed ? 'unlink.removed' : 'unlink.nothing') });
}
