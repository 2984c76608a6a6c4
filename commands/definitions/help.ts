import { SlashCommandBuilder } from 'discord.js';

export const definition = new SlashCommandBuilder()
	.setName('help')
	.setDescription('How to link a key and read your statistics');
