import { SlashCommandBuilder } from 'discord.js';
import type { MessageKey } from '../../src/i18n/index.js';
import { WEEKDAYS } from '../../src/reports/report-record.js';
import { described, localizedChoices } from './localized.js';

const choice = <V extends string>(key: MessageKey, value: V) => localizedChoices([value], () => key)[0]!;
/** Monday first, as people read a week. */
const WEEK_ORDER = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

// No default permissions and no context limit: the digest is the member's own account, from any server or a DM.
export const definition = described(new SlashCommandBuilder(), 'commands.digest.description')
	.setName('digest')
	.addSubcommand((sub) =>
		described(sub, 'commands.digest.subcommands.on.description')
			.setName('on')
			.addStringOption((option) =>
				described(option, 'commands.digest.subcommands.on.options.weekday.description')
					.setName('weekday')
					.addChoices(...WEEK_ORDER.map((day) => choice(`choices.weekday.${day}`, day))),
			)
			.addIntegerOption((option) =>
				described(option, 'commands.digest.subcommands.on.options.hour.description')
					.setName('hour')
					.setMinValue(0)
					.setMaxValue(23),
			)
			.addStringOption((option) =>
				described(option, 'commands.digest.subcommands.on.options.timezone.description')
					.setName('timezone')
					.setMaxLength(64)
					.setAutocomplete(true),
			),
	)
	.addSubcommand((sub) => described(sub, 'commands.digest.subcommands.off.description').setName('off'))
	.addSubcommand((sub) => described(sub, 'commands.digest.subcommands.show.description').setName('show'));
