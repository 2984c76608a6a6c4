import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { optionChannelTypes } from './channel-types.js';
import { LANGUAGE_NAMES, LOCALES, type MessageKey } from '../../src/i18n/index.js';
import { STATS_DAYS, STATS_METRICS } from '../../src/stats-options.js';
import { described, localizedChoices } from './localized.js';

const option = (name: string) => `commands.settings.subcommands.set.options.${name}.description` as MessageKey;

/** Channels a member can read posts in: text and announcement channels. */

export const definition = described(
	new SlashCommandBuilder()
		.setName('settings')
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
		.setContexts(InteractionContextType.Guild),
	'commands.settings.description',
)
	.addSubcommand((sub) => described(sub.setName('show'), 'commands.settings.subcommands.show.description'))
	.addSubcommand((sub) =>
		described(sub.setName('set'), 'commands.settings.subcommands.set.description')
			.addRoleOption((o) => described(o.setName('server-stats-role'), option('serverStatsRole')))
			.addRoleOption((o) => described(o.setName('share-role'), option('shareRole')))
			.addChannelOption((o) =>
				described(o.setName('share-channel'), option('shareChannel')).addChannelTypes(...optionChannelTypes('posts')),
			)
			.addIntegerOption((o) =>
				described(o.setName('default-days'), option('defaultDays')).addChoices(
					...localizedChoices(STATS_DAYS, (days) => `choices.days.${days}`),
				),
			)
			.addStringOption((o) =>
				described(o.setName('default-metric'), option('defaultMetric')).addChoices(
					...localizedChoices(STATS_METRICS, (metric) => `choices.metric.${metric}`),
				),
			)
			.addStringOption((o) =>
				described(o.setName('language'), option('language')).addChoices(
					...localizedChoices(['auto'] as const, () => 'choices.language.auto'),
					// Each language in its own words, the same for every reader: nobody has to translate their own.
					...LOCALES.map((locale) => ({ name: LANGUAGE_NAMES[locale], value: locale })),
				),
			)
			.addChannelOption((o) =>
				described(o.setName('audit-channel'), option('auditChannel')).addChannelTypes(...optionChannelTypes('posts')),
			),
	)
	.addSubcommand((sub) => described(sub.setName('reset'), 'commands.settings.subcommands.reset.description'));
