import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

export const definition = new SlashCommandBuilder()
	.setName('server-key')
	.setDescription('Manage the API key linked for this whole server')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) => sub.setName('set').setDescription("Link the server's API key (asked in a private form)"))
	.addSubcommand((sub) => sub.setName('remove').setDescription("Forget the server's API key"))
	.addSubcommand((sub) => sub.setName('status').setDescription('Show which account the server is linked to'));
