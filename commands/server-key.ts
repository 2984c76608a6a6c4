import {
	InteractionContextType,
	MessageFlags,
	PermissionFlagsBits,
	SlashCommandBuilder,
	time,
	TimestampStyles,
	type ChatInputCommandInteraction,
	type ModalSubmitInteraction,
} from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { keyModal, readKeyField } from '../src/bot/key-modal.js';
import { formatAccountName, linkConfirmation } from '../src/bot/link-replies.js';
import { linkFailure } from '../src/bot/error-replies.js';
import { UserFacingError } from '../src/bot/user-facing-error.js';

export const definition = new SlashCommandBuilder()
	.setName('server-key')
	.setDescription('Manage the API key linked for this whole server')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) => sub.setName('set').setDescription("Link the server's API key (asked in a private form)"))
	.addSubcommand((sub) => sub.setName('remove').setDescription("Forget the server's API key"))
	.addSubcommand((sub) => sub.setName('status').setDescription('Show which account the server is linked to'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction);
	const subcommand = interaction.options.getSubcommand();
	if (subcommand === 'set') {
		await interaction.showModal(keyModal('server-key:submit', "Link this server's API key"));
		return;
	}
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	if (subcommand === 'remove') {
		const removed = await ctx.links.removeServerLink(guildId);
		await interaction.editReply(removed ? "Removed the server's API key." : 'This server had no key linked.');
		return;
	}
	const info = await ctx.links.getServerLink(guildId);
	if (!info) {
		await interaction.editReply('This server has no API key linked. Link one with `/server-key set`.');
		return;
	}
	const by = info.linkedBy ? ` by <@${info.linkedBy}>` : '';
	const state = info.verified ? '' : '\nThe key is not verified yet: statistics come with the V2 update.';
	await interaction.editReply(
		`This server is linked to ${formatAccountName(info.accountName)} (key ending \`…${info.keyHint}\`), ` +
			`linked${by} ${time(Math.floor(info.linkedAt / 1000), TimestampStyles.RelativeTime)}.${state}`,
	);
}

export async function onModal(interaction: ModalSubmitInteraction, ctx: BotContext): Promise<void> {
	// Checked again on submit: the default permission only hides the command, and roles can change meanwhile.
	const guildId = requireManageServer(interaction);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const info = await ctx.links
		.linkServer(guildId, readKeyField(interaction), interaction.user.id)
		.catch((error: unknown) => {
			throw linkFailure(error, 'server-key set');
		});
	await interaction.editReply(linkConfirmation(info, 'this server'));
}

/**
 * `default_member_permissions` is only a default that server owners can override per channel or
 * role, so Manage Server is checked here on every run.
 */
function requireManageServer(interaction: ChatInputCommandInteraction | ModalSubmitInteraction): string {
	if (!interaction.inGuild()) throw new UserFacingError('`/server-key` works inside a server, not in DMs.');
	if (!interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) {
		throw new UserFacingError("Only members with the Manage Server permission can change the server's key.");
	}
	return interaction.guildId;
}
