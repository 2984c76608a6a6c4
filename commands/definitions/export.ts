import { SlashCommandBuilder } from 'discord.js';
import { described } from './localized.js';
import { withDateRange, withScopeAndDays } from './stats-options.js';

export const definition = withDateRange(
	withScopeAndDays(described(new SlashCommandBuilder().setName('export'), 'commands.export.description'), 'export'),
	'export',
);
