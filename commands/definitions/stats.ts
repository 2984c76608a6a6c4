import { SlashCommandBuilder } from 'discord.js';
import { STATS_METRICS } from '../../src/stats-options.js';
import { described, localizedChoices } from './localized.js';
import { withDateRange, withScopeAndDays } from './stats-options.js';

export const definition = withDateRange(
	withScopeAndDays(described(new SlashCommandBuilder().setName('stats'), 'commands.stats.description'), 'stats')
		.addBooleanOption((option) => described(option.setName('share'), 'commands.stats.options.share.description'))
		.addStringOption((option) =>
			described(option.setName('metric'), 'commands.stats.options.metric.description').addChoices(
				...localizedChoices(STATS_METRICS, (metric) => `choices.metric.${metric}`),
			),
		),
	'stats',
);
