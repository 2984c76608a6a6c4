import { SlashCommandBuilder } from 'discord.js';
import { CHART_DAYS } from '../../src/render/chart.js';
import { STATS_SCOPES } from '../../src/stats/scope.js';

export const definition = new SlashCommandBuilder()
	.setName('stats')
	.setDescription("Show your advertising account's sends and joins")
	.addStringOption((option) =>
		option
			.setName('scope')
			.setDescription("Whose statistics: your own linked key (default) or this server's")
			.addChoices(...STATS_SCOPES.map((scope) => ({ name: scope, value: scope }))),
	)
	.addIntegerOption((option) =>
		option
			.setName('days')
			.setDescription('Days shown in the chart (default 30)')
			.addChoices(...CHART_DAYS.map((days) => ({ name: `${days} days`, value: days }))),
	)
	.addBooleanOption((option) =>
		option.setName('share').setDescription('Post the result publicly in this channel (default: only you see it)'),
	);
