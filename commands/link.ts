import type { BotContext } from '../src/discord/context.js';
import { keyModal, readKeyField } from '../src/discord/key-modal.js';
import { linkConfirmation } from '../src/discord/link-replies.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction, ModalInteraction } from '../src/discord/interaction.js';
import { link } from '../src/stats/link-actions.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'link';

export async function execute(interaction: CommandInteraction): Promise<void> {
	// A modal must be the first response to its interaction: nothing may be deferred before it.
	await interaction.showModal(keyModal('link:submit', 'modals.link.title', memberTranslator(interaction)));
}

export async function onModal(interaction: ModalInteraction, ctx: BotContext): Promise<void> {
	await interaction.defer('private'); // verifying the key calls the network
	const info = await link(ctx, interaction.userId, readKeyField(interaction));
	await interaction.editReply({ content: linkConfirmation(memberTranslator(interaction), info, 'user') });
}
