import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction } from '../src/discord/interaction.js';

export { definition } from './definitions/help.js';

export async function execute(interaction: CommandInteraction): Promise<void> {
	await interaction.reply({ content: memberTranslator(interaction)('help.text') }, 'private');
}
