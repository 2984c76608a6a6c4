import { SlashCommandBuilder } from 'discord.js';
import { described } from './localized.js';
import { withScopeAndDays } from './stats-options.js';

export const definition = withScopeAndDays(
	described(new SlashCommandBuilder().setName('export'), 'commands.export.description'),
	'export',
);
