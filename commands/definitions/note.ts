import { SlashCommandBuilder, type SlashCommandStringOption } from 'discord.js';
import { MAX_NOTE_LENGTH } from '../../src/notes/note-record.js';
import { STATS_SCOPES } from '../../src/stats-options.js';
import { described, localizedChoices } from './localized.js';

const scopeOption = (option: SlashCommandStringOption) =>
	described(option, 'note.commands.scope')
		.setName('scope')
		.addChoices(...localizedChoices(STATS_SCOPES, (scope) => `choices.scope.${scope}`));

export const definition = described(new SlashCommandBuilder(), 'note.commands.description')
	.setName('note')
	.addSubcommand((sub) =>
		described(sub, 'note.commands.add')
			.setName('add')
			.addStringOption((option) =>
				// YYYY-MM-DD is ten characters; the action says what is wrong with anything else.
				described(option, 'note.commands.date').setName('date').setRequired(true).setMinLength(10).setMaxLength(10),
			)
			.addStringOption((option) =>
				described(option, 'note.commands.text')
					.setName('text')
					.setRequired(true)
					.setMinLength(1)
					.setMaxLength(MAX_NOTE_LENGTH),
			)
			.addStringOption(scopeOption),
	)
	.addSubcommand((sub) =>
		described(sub, 'note.commands.remove')
			.setName('remove')
			.addStringOption((option) =>
				described(option, 'note.commands.note').setName('note').setRequired(true).setAutocomplete(true),
			)
			.addStringOption(scopeOption),
	)
	.addSubcommand((sub) => described(sub, 'note.commands.list').setName('list').addStringOption(scopeOption));
