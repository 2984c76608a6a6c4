import { SlashCommandBuilder } from 'discord.js';
import { commandLocalizations, translator } from '../../src/i18n/index.js';
import { STATS_DAYS, STATS_METRICS } from '../../src/stats/request.js';
import { STATS_SCOPES } from '../../src/stats/scope.js';

const en = translator('en-US');

export const definition = new SlashCommandBuilder()
	.setName('stats')
	.setDescription(en('commands.stats.description'))
	.setDescriptionLocalizations(commandLocalizations('commands.stats.description'))
	.addStringOption((option) =>
		option
			.setName('scope')
			.setDescription(en('commands.stats.options.scope.description'))
			.setDescriptionLocalizations(commandLocalizations('commands.stats.options.scope.description'))
			.addChoices(
				...STATS_SCOPES.map((scope) => ({
					name: en(`choices.scope.${scope}`),
					name_localizations: commandLocalizations(`choices.scope.${scope}`),
					value: scope,
				})),
			),
	)
	.addIntegerOption((option) =>
		option
			.setName('days')
			.setDescription(en('commands.stats.options.days.description'))
			.setDescriptionLocalizations(commandLocalizations('commands.stats.options.days.description'))
			.addChoices(
				...STATS_DAYS.map((days) => ({
					name: en(`choices.days.${days}`),
					name_localizations: commandLocalizations(`choices.days.${days}`),
					value: days,
				})),
			),
	)
	.addBooleanOption((option) =>
		option
			.setName('share')
			.setDescription(en('commands.stats.options.share.description'))
			.setDescriptionLocalizations(commandLocalizations('commands.stats.options.share.description')),
	)
	.addStringOption((option) =>
		option
			.setName('metric')
			.setDescription(en('commands.stats.options.metric.description'))
			.setDescriptionLocalizations(commandLocalizations('commands.stats.options.metric.description'))
			.addChoices(
				...STATS_METRICS.map((metric) => ({
					name: en(`choices.metric.${metric}`),
					name_localizations: commandLocalizations(`choices.metric.${metric}`),
					value: metric,
				})),
			),
	);
