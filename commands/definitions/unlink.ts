import { SlashCommandBuilder } from 'discord.js';
import { described } from './localized.js';

export const definition = described(new SlashCommandBuilder().setName('unlink'), 'commands.unlink.description');
