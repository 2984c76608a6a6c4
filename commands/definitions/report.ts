import {
	ChannelType,
	InteractionContextType,
	PermissionFlagsBits,
	SlashCommandBuilder,
	type SlashCommandChannelOption,
} from 'discord.js';
import { commandLocalizations, translator, type MessageKey } from '../../src/i18n/index.js';
import { REPORT_FREQUENCIES, WEEKDAYS } from '../../src/reports/report-record.js';

const en = translator('en-US');
const text = (key: MessageKey) => ({ default: en(key), localized: commandLocalizations(key) });
const choice = <V extends string>(key: MessageKey, value: V) => ({
	name: en(key),
	name_localizations: commandLocalizations(key),
	value,
});
/** Monday first, as people read a week; cron's order (Sunday = 0) stays inside the schedule. */
const WEEK_ORDER = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

const described = <T extends { setDescription(d: string): T; setDescriptionLocalizations(l: object): T }>(
	builder: T,
	key: MessageKey,
): T => {
	const { default: description, localized } = text(key);
	return builder.setDescription(description).setDescriptionLocalizations(localized);
};

const channelOption = (option: SlashCommandChannelOption, key: MessageKey) =>
	described(option, key)
		.setName('channel')
		.setRequired(true)
		.addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement);

export const definition = described(new SlashCommandBuilder(), 'commands.report.description')
	.setName('report')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) =>
		described(sub, 'commands.report.subcommands.add.description')
			.setName('add')
			.addChannelOption((option) =>
				channelOption(option, 'commands.report.subcommands.add.options.channel.description'),
			)
			.addStringOption((option) =>
				described(option, 'commands.report.subcommands.add.options.every.description')
					.setName('every')
					.setRequired(true)
					.addChoices(...REPORT_FREQUENCIES.map((every) => choice(`choices.every.${every}`, every))),
			)
			.addIntegerOption((option) =>
				described(option, 'commands.report.subcommands.add.options.hour.description')
					.setName('hour')
					.setMinValue(0)
					.setMaxValue(23),
			)
			.addStringOption((option) =>
				described(option, 'commands.report.subcommands.add.options.timezone.description')
					.setName('timezone')
					.setMaxLength(64)
					.setAutocomplete(true),
			)
			.addStringOption((option) =>
				described(option, 'commands.report.subcommands.add.options.weekday.description')
					.setName('weekday')
					.addChoices(...WEEK_ORDER.map((day) => choice(`choices.weekday.${day}`, day))),
			),
	)
	.addSubcommand((sub) =>
		described(sub, 'commands.report.subcommands.remove.description')
			.setName('remove')
			.addChannelOption((option) =>
				channelOption(option, 'commands.report.subcommands.remove.options.channel.description'),
			),
	)
	.addSubcommand((sub) => described(sub, 'commands.report.subcommands.list.description').setName('list'));
