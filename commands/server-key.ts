import { PermissionFlagsBits, time, TimestampStyles } from 'discord.js';
import type { BotContext } from '../src/interactions/context.js';
import { linkFailure } from '../src/interactions/error-replies.js';
import { keyModal, readKeyField } from '../src/interactions/key-modal.js';
import { formatAccountName, linkConfirmation } from '../src/interactions/link-replies.js';
import type { CommandInteraction, ModalInteraction } from '../src/interactions/types.js';
import { UserFacingError } from '../src/interactions/user-facing-error.js';

export { definition } from './definitions/server-key.js';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction);
	if (interaction.subcommand === 'set') {
		await interaction.showModal(keyModal('server-key:submit', "Link this server's API key"));
		return;
	}
	await interaction.defer('private');
	if (interaction.subcommand === 'remove') {
		const removed = await ctx.links.removeServerLink(guildId);
		await interaction.editReply({
			content: removed ? "Removed the server's API key." : 'This server had no key linked.',
		});
		return;
	}
	const info = await ctx.links.getServerLink(guildId);
	if (!info) {
		await interaction.editReply({ content: 'This server has no API key linked. Link one with `/server-key set`.' });
		return;
	}
	const by = info.linkedBy ? ` by <@${info.linkedBy}>` : '';
	const state = info.verified ? '' : '\nThe key is not verified yet: statistics come with the V2 update.';
	await interaction.editReply({
		content:
			`This server is linked to ${formatAccountName(info.accountName)} (key ending \`…${info.keyHint}\`), ` +
			`linked${by} ${time(Math.floor(info.linkedAt / 1000), TimestampStyles.RelativeTime)}.${state}`,
	});
}

export async function onModal(interaction: ModalInteraction, ctx: BotContext): Promise<void> {
	// Checked again on submit: the default permission only hides the command, and roles can change meanwhile.
	const guildId = requireManageServer(interaction);
	await interaction.defer('private');
	const info = await ctx.links
		.linkServer(guildId, readKeyField(interaction), interaction.userId)
		.catch((error: unknown) => {
			throw linkFailure(error, 'server-key set');
		});
	await interaction.editReply({ content: linkConfirmation(info, 'this server') });
}

/**
 * `default_member_permissions` is only a default that server owners can override per channel or
 * role, so Manage Server is checked here on every run.
 */
function requireManageServer(interaction: CommandInteraction | ModalInteraction): string {
	if (interaction.guildId === null) throw new UserFacingError('`/server-key` works inside a server, not in DMs.');
	if (((interaction.memberPermissions ?? 0n) & PermissionFlagsBits.ManageGuild) === 0n) {
		throw new UserFacingError("Only members with the Manage Server permission can change the server's key.");
	}
	return interaction.guildId;
}
