import { SlashCommandBuilder } from 'discord.js';
import { commandLocalizations, translator } from '../../src/i18n/index.js';
import { STATS_DAYS } from '../../src/stats/request.js';
import { STATS_SCOPES } from '../../src/stats/scope.js';

const en = translator('en-US');

export const definition = new SlashCommandBuilder()
	.setName('export')
	.setDescription(en('commands.export.description'))
	.setDescriptionLocalizations(commandLocalizations('commands.export.description'))
	.addStringOption((option) =>
		option
			.setName('scope')
			.setDescription(en('commands.export.options.scope.description'))
			.setDescriptionLocalizations(commandLocalizations('commands.export.options.scope.description'))
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
			.setDescription(en('commands.export.options.days.description'))
			.setDescriptionLocalizations(commandLocalizations('commands.export.options.days.description'))
			.addChoices(
				...STATS_DAYS.map((days) => ({
					name: en(`choices.days.${days}`),
					name_localizations: commandLocalizations(`choices.days.${days}`),
					value: days,
				})),
			),
	);
