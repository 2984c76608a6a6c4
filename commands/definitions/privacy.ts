import { SlashCommandBuilder } from 'discord.js';
import { described } from './localized.js';

// No default permissions and no context limit: any member, in a server or in the bot's DMs.
export const definition = described(new SlashCommandBuilder(), 'commands.privacy.description')
	.setName('privacy')
	.addSubcommand((sub) => described(sub, 'commands.privacy.subcommands.show.description').setName('show'))
	.addSubcommand((sub) => described(sub, 'commands.privacy.subcommands.export.description').setName('export'))
	.addSubcommand((sub) => described(sub, 'commands.privacy.subcommands.delete.description').setName('delete'));
