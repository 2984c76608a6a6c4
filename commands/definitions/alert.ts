import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { optionChannelTypes } from './channel-types.js';
import { ALERT_KINDS } from '../../src/watch/watch-record.js';
import { described, localizedChoices } from './localized.js';

export const definition = described(new SlashCommandBuilder(), 'watch.commands.alert.description')
	.setName('alert')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) =>
		described(sub, 'watch.commands.alert.add')
			.setName('add')
			.addStringOption((option) =>
				described(option, 'watch.commands.alert.addKind')
					.setName('kind')
					.setRequired(true)
					.addChoices(...localizedChoices(ALERT_KINDS, (kind) => `watch.kinds.${kind}`)),
			)
			.addChannelOption((option) =>
				described(option, 'watch.commands.alert.addChannel')
					.setName('channel')
					.setRequired(true)
					.addChannelTypes(...optionChannelTypes('posts')),
			)
			.addNumberOption((option) =>
				described(option, 'watch.commands.alert.addThreshold').setName('threshold').setMinValue(1),
			),
	)
	.addSubcommand((sub) =>
		described(sub, 'watch.commands.alert.remove')
			.setName('remove')
			.addStringOption((option) =>
				described(option, 'watch.commands.alert.removeId')
					.setName('id')
					.setRequired(true)
					.setMaxLength(16)
					.setAutocomplete(true),
			),
	)
	.addSubcommand((sub) => described(sub, 'watch.commands.alert.list').setName('list'));
