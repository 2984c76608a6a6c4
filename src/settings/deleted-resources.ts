import type { BotContext } from '../discord/context.js';
import type { DeletedResource } from './settings-store.js';

/**
 * GUILD_ROLE_DELETE / CHANNEL_DELETE from the gateway: a setting pointing at what was deleted is
 * unset (its rule no longer applies) and `/settings show` says so. Never throws: it runs on the
 * gateway's event loop, where nobody waits for an answer.
 */
export async function onGuildResourceDeleted(
	ctx: Pick<BotContext, 'settings' | 'log'>,
	resource: DeletedResource,
): Promise<void> {
	try {
		const unset = await ctx.settings.forgetDeleted(resource);
		if (unset.length > 0) ctx.log.info({ ...resource, unset }, 'settings pointed at a deleted role or channel; unset');
	} catch (error) {
		ctx.log.warn({ err: error, ...resource }, 'deleted role or channel not applied to the settings');
	}
}

/** The resource a raw gateway dispatch deletes, or null for any other event. */
export function deletedResourceOf(packet: { t?: string | null; d?: unknown }): DeletedResource | null {
	const data = (packet.d ?? {}) as { guild_id?: unknown; role_id?: unknown; id?: unknown };
	if (typeof data.guild_id !== 'string') return null;
	if (packet.t === 'GUILD_ROLE_DELETE' && typeof data.role_id === 'string') {
		return { guildId: data.guild_id, roleId: data.role_id };
	}
	if (packet.t === 'CHANNEL_DELETE' && typeof data.id === 'string') {
		return { guildId: data.guild_id, channelId: data.id };
	}
	return null;
}
