import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction } from '../src/discord/interaction.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'help';

export async function execute(interaction: CommandInteraction): Promise<void> {
	await interaction.reply({ content: memberTranslator(interaction)('help.text') }, 'private');
}
