import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { optionChannelTypes } from './channel-types.js';
import type { MessageKey } from '../../src/i18n/index.js';
import { REPORT_FREQUENCIES, WEEKDAYS } from '../../src/reports/report-record.js';
import { described, localizedChoices } from './localized.js';

const choice = <V extends string>(key: MessageKey, value: V) => localizedChoices([value], () => key)[0]!;
/** Monday first, as people read a week; cron's order (Sunday = 0) stays inside the schedule. */
const WEEK_ORDER = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

export const definition = described(new SlashCommandBuilder(), 'commands.report.description')
	.setName('report')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) =>
		described(sub, 'commands.report.subcommands.add.description')
			.setName('add')
			.addChannelOption((option) =>
				described(option, 'commands.report.subcommands.add.options.channel.description')
					.setName('channel')
					.setRequired(true)
					.addChannelTypes(...optionChannelTypes('posts')),
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
			// A string, not a channel: Discord's channel picker cannot offer a deleted channel, whose report must
			// still be removable. The autocomplete lists the server's report channels by name, deleted ones too.
			.addStringOption((option) =>
				described(option, 'commands.report.subcommands.remove.options.channel.description')
					.setName('channel')
					.setRequired(true)
					.setMaxLength(100)
					.setAutocomplete(true),
			),
	)
	.addSubcommand((sub) => described(sub, 'commands.report.subcommands.list.description').setName('list'));
