import type { BotContext } from '../src/interactions/context.js';
import type { CommandInteraction } from '../src/interactions/types.js';

export { definition } from './definitions/unlink.js';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	await interaction.defer('private');
	const removed = await ctx.links.removeUserLink(interaction.userId);
	await interaction.editReply({
		content: removed ? 'Unlinked: the bot no longer stores your key.' : 'You had no key linked.',
	});
}
