// What /statchannel and /alert check before they change anything.
import { PermissionFlagsBits } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import type { CommandInteraction } from '../src/discord/interaction.js';
import { ChannelRefusedError, UserFacingError } from '../src/errors.js';
import { missingPermissions, permissionList, type BotPermission } from '../src/permissions.js';

/** `default_member_permissions` can be overridden per role and channel, so Manage Server is checked on every run. */
export function requireManageServer(interaction: CommandInteraction, command: string): string {
	if (interaction.guildId === null) throw new UserFacingError('errors.guildOnly', { command });
	if (((interaction.memberPermissions ?? 0n) & PermissionFlagsBits.ManageGuild) === 0n) {
		throw new UserFacingError('errors.manageServerRequired', { command });
	}
	return interaction.guildId;
}

/** Both features watch the server's account: without a readable server key there is nothing to show. */
export async function requireServerKey(ctx: BotContext, guildId: string): Promise<void> {
	const link = await ctx.links.getServerLink(guildId);
	if (!link) throw new UserFacingError('watch.needsServerKey');
	if (!link.readable) throw new UserFacingError('errors.serverRelinkNeeded');
}

/**
 * Asks Discord for the bot's permissions in the chosen channel (the interaction carries them only for the
 * channel the command was typed in) and names what is missing.
 */
export async function requireChannelPermissions(
	interaction: CommandInteraction,
	ctx: BotContext,
	guildId: string,
	channelId: string,
	needed: readonly BotPermission[],
): Promise<void> {
	const granted = await ctx.guildApi.channelPermissions(guildId, channelId).catch((error: unknown) => {
		// A channel the bot cannot even see reads as gone to it: View Channel is what it lacks.
		if (error instanceof ChannelRefusedError) return 0n;
		throw error;
	});
	const missing = missingPermissions(granted, needed);
	if (missing.length === 0) return;
	throw new UserFacingError('watch.cannotUse', { channelId, permissions: permissionList(missing) });
}

/** A channel typed or picked as `<#id>`, a link or a bare id; null when it holds no id. */
export function channelIdOf(text: string | null): string | null {
	return (text ?? '').match(/\d{17,20}/g)?.at(-1) ?? null;
}
