import { SlashCommandBuilder } from 'discord.js';

export const definition = new SlashCommandBuilder()
	.setName('link')
	.setDescription('Link your advertising API key to your Discord account (asked in a private form)');
