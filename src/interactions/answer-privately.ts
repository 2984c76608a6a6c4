import type { Logger } from '../logger.js';
import { isExpiredInteraction, logExpired } from './expired-interaction.js';
import type { RepliableInteraction } from './types.js';

/** Answers privately whatever state the interaction is in: reply first, or edit what was deferred. */
export async function answerPrivately(interaction: RepliableInteraction, content: string, log: Logger): Promise<void> {
	try {
		const state = interaction.acknowledgement;
		if (state === 'update' || state === 'defer-update') {
			// Acknowledged as an update of the message holding the button: keep that message, add a private note.
			await interaction.followUp({ content }, 'private');
		} else if (state !== null) {
			await interaction.editReply({ content, embeds: [], components: [], files: [] });
		} else {
			await interaction.reply({ content }, 'private');
		}
	} catch (error) {
		if (isExpiredInteraction(error)) logExpired(log, interaction.createdAt, error);
		else log.error({ err: error }, 'could not send the error reply');
	}
}
