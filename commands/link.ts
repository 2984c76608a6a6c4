import type { BotContext } from '../src/interactions/context.js';
import { replyIfCoolingDown } from '../src/interactions/cooldown-reply.js';
import { linkFailure } from '../src/interactions/error-replies.js';
import { keyModal, readKeyField } from '../src/interactions/key-modal.js';
import { linkConfirmation } from '../src/interactions/link-replies.js';
import { memberTranslator } from '../src/interactions/member-language.js';
import type { CommandInteraction, ModalInteraction } from '../src/interactions/types.js';

export { definition } from './definitions/link.js';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	if (await replyIfCoolingDown(interaction, ctx, 'link')) return;
	// A modal must be the first response to its interaction: nothing may be deferred before it.
	await interaction.showModal(keyModal('link:submit', 'modals.link.title', memberTranslator(interaction)));
}

export async function onModal(interaction: ModalInteraction, ctx: BotContext): Promise<void> {
	await interaction.defer('private'); // verifying the key calls the network
	const info = await ctx.links.linkUser(interaction.userId, readKeyField(interaction)).catch((error: unknown) => {
		throw linkFailure(error, 'link');
	});
	await interaction.editReply({ content: linkConfirmation(memberTranslator(interaction), info, 'user') });
}
