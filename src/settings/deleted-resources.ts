import type { Logger } from '../logger.js';
import type { DeletedResource, SettingsStore } from './settings-store.js';

/**
 * GUILD_ROLE_DELETE / CHANNEL_DELETE from the gateway: a setting pointing at what was deleted is
 * unset (its rule no longer applies) and `/settings show` says so. Never throws: it runs on the
 * gateway's event loop, where nobody waits for an answer.
 */
export async function onGuildResourceDeleted(
	ctx: { settings: Pick<SettingsStore, 'forgetDeleted'>; log: Pick<Logger, 'info' | 'warn'> },
	resource: DeletedResource,
): Promise<void> {
	try {
		const unset = await ctx.settings.forgetDeleted(resource);
		if (unset.length > 0) ctx.log.info({ ...resource, unset }, 'settings pointed at a deleted role or channel; unset');
	} catch (error) {
		ctx.log.warn({ err: error, ...resource }, 'deleted role or channel not applied to the settings');
	}
}
