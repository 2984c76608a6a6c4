import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { optionChannelTypes } from './channel-types.js';
import { STAT_FIGURES } from '../../src/watch/watch-record.js';
import { described, localizedChoices } from './localized.js';

/** Which channels may be stat channels is said once; Discord's builder types its own channel type values. */

export const definition = described(new SlashCommandBuilder(), 'watch.commands.statchannel.description')
	.setName('statchannel')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) =>
		described(sub, 'watch.commands.statchannel.add')
			.setName('add')
			.addChannelOption((option) =>
				described(option, 'watch.commands.statchannel.addChannel')
					.setName('channel')
					.setRequired(true)
					.addChannelTypes(...optionChannelTypes('statChannel')),
			)
			.addStringOption((option) =>
				described(option, 'watch.commands.statchannel.addFigure')
					.setName('figure')
					.setRequired(true)
					.addChoices(...localizedChoices(STAT_FIGURES, (figure) => `watch.figures.${figure}`)),
			),
	)
	.addSubcommand((sub) =>
		described(sub, 'watch.commands.statchannel.remove')
			.setName('remove')
			.addStringOption((option) =>
				// A string, not a channel option: a channel Discord no longer lists must still be removable.
				described(option, 'watch.commands.statchannel.removeChannel')
					.setName('channel')
					.setRequired(true)
					.setMaxLength(100)
					.setAutocomplete(true),
			),
	)
	.addSubcommand((sub) => described(sub, 'watch.commands.statchannel.list').setName('list'));
