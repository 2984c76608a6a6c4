import type Keyv from 'keyv';
import type { WithLock } from '../store/locks.js';
import {
	CHANNEL_SETTINGS,
	DEFAULT_SETTINGS,
	isDefault,
	parseStoredSettings,
	ROLE_SETTINGS,
	SETTINGS_SCHEMA_VERSION,
	type ResourceSetting,
	type ServerSettings,
	type SettingsChange,
	type StoredSettings,
} from './settings-record.js';

/** A role or channel Discord reported deleted in a server. */
export type DeletedResource = { guildId: string; roleId: string } | { guildId: string; channelId: string };

export interface SettingsStore {
	/** The server's settings, the defaults when it has none. */
	get(guildId: string): Promise<ServerSettings>;
	/** Applies `change` and returns the settings before and after. */
	update(guildId: string, change: SettingsChange): Promise<{ before: ServerSettings; after: ServerSettings }>;
	/** Back to the defaults; returns the settings before. */
	reset(guildId: string): Promise<ServerSettings>;
	/** Unsets every setting that points at the deleted role or channel; returns which ones did. */
	forgetDeleted(resource: DeletedResource): Promise<ResourceSetting[]>;
}

/** Store keys, spelled once: one record per server. */
export const settingsKey = (guildId: string): string => guildId;

/**
 * Settings in the store's `settings` namespace, one plain JSON record per server (no secret in it).
 * Every change is a read-modify-write under `withLock`, so two admins at once cannot lose each other's change.
 */
export function createSettingsStore(options: { keyv: Keyv; withLock: WithLock; now?: () => number }): SettingsStore {
	const { keyv, withLock } = options;
	const now = options.now ?? Date.now;

	const read = async (guildId: string): Promise<ServerSettings> =>
		parseStoredSettings(await keyv.get(settingsKey(guildId)));

	const write = async (guildId: string, settings: ServerSettings): Promise<void> => {
		// A server back at the defaults keeps no record: nothing to migrate or to look at later.
		if (isDefault(settings)) {
			await keyv.delete(settingsKey(guildId));
			return;
		}
		const stored: StoredSettings = { version: SETTINGS_SCHEMA_VERSION, updatedAt: now(), ...settings };
		await keyv.set(settingsKey(guildId), stored);
	};

	const modify = <T>(guildId: string, fn: (before: ServerSettings) => { after: ServerSettings; result: T }) =>
		withLock(`settings:${guildId}`, async () => {
			const before = await read(guildId);
			const { after, result } = fn(before);
			if (after !== before) await write(guildId, after);
			return result;
		});

	return {
		get: read,
		update: (guildId, change) =>
			modify(guildId, (before) => {
				const after: ServerSettings = { ...before, ...withoutUndefined(change) };
				// Setting a role or channel again answers the "was deleted" note.
				after.deleted = before.deleted.filter((name) => !(name in change));
				return { after, result: { before, after } };
			}),
		reset: (guildId) => modify(guildId, (before) => ({ after: { ...DEFAULT_SETTINGS, deleted: [] }, result: before })),
		forgetDeleted: async (resource) => {
			const names: readonly ResourceSetting[] = 'roleId' in resource ? ROLE_SETTINGS : CHANNEL_SETTINGS;
			const id = 'roleId' in resource ? resource.roleId : resource.channelId;
			const pointingAt = (settings: ServerSettings) => names.filter((name) => settings[name] === id);
			// Discord reports every deleted role and channel of every server: most concern no setting, and
			// those cost one read, no lock.
			if (pointingAt(await read(resource.guildId)).length === 0) return [];
			return modify(resource.guildId, (before) => {
				const hit = pointingAt(before);
				if (hit.length === 0) return { after: before, result: hit };
				const after: ServerSettings = { ...before, deleted: [...new Set([...before.deleted, ...hit])] };
				for (const name of hit) after[name] = null;
				return { after, result: hit };
			});
		},
	};
}

function withoutUndefined(change: SettingsChange): SettingsChange {
	return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as SettingsChange;
}
