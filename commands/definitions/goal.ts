import { SlashCommandBuilder, type SlashCommandStringOption } from 'discord.js';
import { GOAL_METRICS, GOAL_PERIODS } from '../../src/goals/goal-record.js';
import { STATS_SCOPES } from '../../src/stats-options.js';
import { described, localizedChoices } from './localized.js';

const metricOption = (option: SlashCommandStringOption) =>
	described(option, 'goal.commands.metric')
		.setName('metric')
		.setRequired(true)
		.addChoices(...localizedChoices(GOAL_METRICS, (metric) => `choices.metric.${metric}`));
const periodOption = (option: SlashCommandStringOption) =>
	described(option, 'goal.commands.period')
		.setName('period')
		.addChoices(...localizedChoices(GOAL_PERIODS, (period) => `choices.goalPeriod.${period}`));
const scopeOption = (option: SlashCommandStringOption) =>
	described(option, 'goal.commands.scope')
		.setName('scope')
		.addChoices(...localizedChoices(STATS_SCOPES, (scope) => `choices.scope.${scope}`));

export const definition = described(new SlashCommandBuilder(), 'goal.commands.description')
	.setName('goal')
	.addSubcommand((sub) =>
		described(sub, 'goal.commands.set')
			.setName('set')
			.addStringOption(metricOption)
			.addIntegerOption((option) =>
				described(option, 'goal.commands.target').setName('target').setRequired(true).setMinValue(1),
			)
			.addStringOption(periodOption)
			.addStringOption(scopeOption),
	)
	.addSubcommand((sub) =>
		described(sub, 'goal.commands.remove')
			.setName('remove')
			.addStringOption(metricOption)
			.addStringOption(periodOption)
			.addStringOption(scopeOption),
	)
	.addSubcommand((sub) => described(sub, 'goal.commands.show').setName('show').addStringOption(scopeOption));
