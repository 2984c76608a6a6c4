import { memberTranslator } from '../src/interactions/member-language.js';
import type { CommandInteraction } from '../src/interactions/types.js';

export { definition } from './definitions/help.js';

export async function execute(interaction: CommandInteraction): Promise<void> {
	await interaction.reply({ content: memberTranslator(interaction)('help.text') }, 'private');
}
