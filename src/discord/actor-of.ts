import type { Actor } from '../core/actor.js';
import { UserFacingError } from '../errors.js';
import { hasManageServer } from '../settings/access.js';
import type { BaseInteraction } from './interaction.js';

/** The member behind an interaction, as a core action takes them: read from this interaction, never a cache. */
export function actorOf(interaction: Pick<BaseInteraction, 'userId' | 'memberPermissions' | 'memberRoles'>): Actor {
	return {
		userId: interaction.userId,
		canManageServer: hasManageServer(interaction),
		roleIds: interaction.memberRoles ?? [],
		origin: 'discord',
	};
}

/** The server a server-only command runs in; in a DM it answers that the command works inside a server. */
export function requireGuild(interaction: Pick<BaseInteraction, 'guildId'>, command: string): string {
	if (interaction.guildId === null) throw new UserFacingError('errors.guildOnly', { command });
	return interaction.guildId;
}
