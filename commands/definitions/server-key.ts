import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { described } from './localized.js';

export const definition = described(new SlashCommandBuilder().setName('server-key'), 'commands.serverKey.description')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) => described(sub.setName('set'), 'commands.serverKey.subcommands.set.description'))
	.addSubcommand((sub) => described(sub.setName('remove'), 'commands.serverKey.subcommands.remove.description'))
	.addSubcommand((sub) => described(sub.setName('status'), 'commands.serverKey.subcommands.status.description'));
