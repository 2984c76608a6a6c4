import { SlashCommandBuilder } from 'discord.js';

export const definition = new SlashCommandBuilder()
	.setName('unlink')
	.setDescription('Forget the API key linked to your Discord account');
