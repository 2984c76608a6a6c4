import type { GuildApi, ResourceState } from '../guild-api.js';
import { CHANNEL_SETTINGS, ROLE_SETTINGS, type ServerSettings } from './settings-record.js';
import type { SettingsStore } from './settings-store.js';

/** `/settings show` answers within this even when Discord is slow; an unanswered check changes nothing. */
const CHECK_DEADLINE_MS = 3000;

/**
 * Asks Discord whether each role and channel the settings point at still exists, and unsets those
 * reported deleted: a deletion the bot missed (it was offline) shows up on the next `/settings show`.
 */
export async function settingsWithDeletionsApplied(
	ctx: {
		settings: Pick<SettingsStore, 'get' | 'forgetDeleted'>;
		guildApi: Pick<GuildApi, 'roleState' | 'channelState'>;
	},
	guildId: string,
	settings: ServerSettings,
): Promise<ServerSettings> {
	const checks: Promise<{ roleId: string } | { channelId: string } | null>[] = [];
	for (const name of ROLE_SETTINGS) {
		const roleId = settings[name];
		if (roleId !== null)
			checks.push(gone(ctx.guildApi.roleState(guildId, roleId)).then((g) => (g ? { roleId } : null)));
	}
	for (const name of CHANNEL_SETTINGS) {
		const channelId = settings[name];
		if (channelId !== null) {
			checks.push(gone(ctx.guildApi.channelState(guildId, channelId)).then((g) => (g ? { channelId } : null)));
		}
	}
	const deleted = (await Promise.all(checks)).filter((resource) => resource !== null);
	if (deleted.length === 0) return settings;
	for (const resource of deleted) await ctx.settings.forgetDeleted({ guildId, ...resource });
	return ctx.settings.get(guildId);
}

async function gone(state: Promise<ResourceState>): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<ResourceState>((resolve) => {
		timer = setTimeout(() => resolve('unknown'), CHECK_DEADLINE_MS);
	});
	try {
		return (await Promise.race([state.catch((): ResourceState => 'unknown'), late])) === 'deleted';
	} finally {
		clearTimeout(timer);
	}
}
