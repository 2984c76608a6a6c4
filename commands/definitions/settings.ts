import { ChannelType, InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { commandLocalizations, LANGUAGE_NAMES, LOCALES, translator, type MessageKey } from '../../src/i18n/index.js';
import { SETTINGS_DAYS, SETTINGS_METRICS } from '../../src/settings/settings-record.js';

const en = translator('en-US');
const text = (key: MessageKey) => ({ en: en(key), localized: commandLocalizations(key) });
const option = (name: string) => text(`commands.settings.subcommands.set.options.${name}.description` as MessageKey);

/** Channels a member can read posts in: text and announcement channels. */
export const SETTINGS_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

const described = <T extends { setDescription(d: string): T; setDescriptionLocalizations(l: object): T }>(
	builder: T,
	description: { en: string; localized: object },
): T => builder.setDescription(description.en).setDescriptionLocalizations(description.localized);

export const definition = described(
	new SlashCommandBuilder()
		.setName('settings')
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
		.setContexts(InteractionContextType.Guild),
	text('commands.settings.description'),
)
	.addSubcommand((sub) => described(sub.setName('show'), text('commands.settings.subcommands.show.description')))
	.addSubcommand((sub) =>
		described(sub.setName('set'), text('commands.settings.subcommands.set.description'))
			.addRoleOption((o) => described(o.setName('server-stats-role'), option('serverStatsRole')))
			.addRoleOption((o) => described(o.setName('share-role'), option('shareRole')))
			.addChannelOption((o) =>
				described(o.setName('share-channel'), option('shareChannel')).addChannelTypes(...SETTINGS_CHANNEL_TYPES),
			)
			.addIntegerOption((o) =>
				described(o.setName('default-days'), option('defaultDays')).addChoices(
					...SETTINGS_DAYS.map((days) => ({
						name: en(`choices.days.${days}`),
						name_localizations: commandLocalizations(`choices.days.${days}`),
						value: days,
					})),
				),
			)
			.addStringOption((o) =>
				described(o.setName('default-metric'), option('defaultMetric')).addChoices(
					...SETTINGS_METRICS.map((metric) => ({
						name: en(`choices.metric.${metric}`),
						name_localizations: commandLocalizations(`choices.metric.${metric}`),
						value: metric,
					})),
				),
			)
			.addStringOption((o) =>
				described(o.setName('language'), option('language')).addChoices(
					{
						name: en('choices.language.auto'),
						name_localizations: commandLocalizations('choices.language.auto'),
						value: 'auto',
					},
					// Each language in its own words, the same for every reader: nobody has to translate their own.
					...LOCALES.map((locale) => ({ name: LANGUAGE_NAMES[locale], value: locale })),
				),
			)
			.addChannelOption((o) =>
				described(o.setName('audit-channel'), option('auditChannel')).addChannelTypes(...SETTINGS_CHANNEL_TYPES),
			),
	)
	.addSubcommand((sub) => described(sub.setName('reset'), text('commands.settings.subcommands.reset.description')));
