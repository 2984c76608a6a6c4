import {
	type ApplicationCommandOptionAllowedChannelTypes,
	InteractionContextType,
	PermissionFlagsBits,
	SlashCommandBuilder,
} from 'discord.js';
import { channelTypesFor } from '../../src/channel-kinds.js';
import { ALERT_KINDS } from '../../src/watch/watch-record.js';
import { described, localizedChoices } from './localized.js';

/** Which channels take posts is said once; Discord's builder types its own channel type values. */
const POST_CHANNEL_TYPES = channelTypesFor('posts') as readonly ApplicationCommandOptionAllowedChannelTypes[];

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
					.addChannelTypes(...POST_CHANNEL_TYPES),
			)
			.addNumberOption((option) =>
				described(option, 'watch.commands.alert.addThreshold').setName('threshold').setRequired(true).setMinValue(1),
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
