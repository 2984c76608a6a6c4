import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { STATS_DAYS, STATS_METRICS } from '../../src/stats-options.js';
import { optionChannelTypes } from './channel-types.js';
import { described, localizedChoices } from './localized.js';

export const definition = described(new SlashCommandBuilder(), 'watch.commands.board.description')
	.setName('board')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) =>
		described(sub, 'watch.commands.board.add')
			.setName('add')
			.addChannelOption((option) =>
				described(option, 'watch.commands.board.addChannel')
					.setName('channel')
					.setRequired(true)
					.addChannelTypes(...optionChannelTypes('posts')),
			)
			.addIntegerOption((option) =>
				described(option, 'watch.commands.board.addDays')
					.setName('days')
					.addChoices(...localizedChoices(STATS_DAYS, (days) => `choices.days.${days}`)),
			)
			.addStringOption((option) =>
				described(option, 'watch.commands.board.addMetric')
					.setName('metric')
					.addChoices(...localizedChoices(STATS_METRICS, (metric) => `choices.metric.${metric}`)),
			),
	)
	.addSubcommand((sub) =>
		described(sub, 'watch.commands.board.remove')
			.setName('remove')
			.addStringOption((option) =>
				// A string, not a channel option: a channel Discord no longer lists must still be removable.
				described(option, 'watch.commands.board.removeChannel')
					.setName('channel')
					.setRequired(true)
					.setMaxLength(100)
					.setAutocomplete(true),
			),
	)
	.addSubcommand((sub) => described(sub, 'watch.commands.board.list').setName('list'));
