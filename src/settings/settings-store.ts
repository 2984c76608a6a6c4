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

export interface SettingsStoreOptions {
	keyv: Keyv;
	withLock: WithLock;
	now?: () => number;
	/**
	 * How long a server's settings read from the store are reused in this process; 0 (the default) reads the
	 * store every time. Every change made through this store replaces its cached copy at once, so the bound only
	 * matters for changes made by another process sharing the store.
	 */
	cacheTtlMs?: number;
}

/**
 * How long a process reuses a server's settings it read. With one process on SQLite every change goes
 * through that process, which replaces its copy at once: the minute only bounds a change written to the
 * file by another program. Processes sharing Redis or PostgreSQL see each other's changes within 5 s.
 */
export const SETTINGS_CACHE_TTL_MS = { oneProcess: 60_000, shared: 0 } as const;

/** Servers whose settings one process keeps at most; past it the oldest entry goes. */
const MAX_CACHED_SERVERS = 20_000;

/**
 * Settings in the store's `settings` namespace, one plain JSON record per server (no secret in it).
 * Every change is a read-modify-write under `withLock`, so two admins at once cannot lose each other's change.
 * Reads are cached in the process for `cacheTtlMs` (every /stats reads its server's settings before anything
 * else); concurrent callers share one store read, and each gets its own copy.
 */
export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
	const { keyv, withLock } = options;
	const now = options.now ?? Date.now;
	const ttlMs = options.cacheTtlMs ?? 0;
	const cached = new Map<string, { settings: Promise<ServerSettings>; expiresAt: number }>();

	const cache = (guildId: string, settings: Promise<ServerSettings>) => {
		if (ttlMs <= 0) return;
		cached.delete(guildId);
		if (cached.size >= MAX_CACHED_SERVERS) cached.delete(cached.keys().next().value as string);
		cached.set(guildId, { settings, expiresAt: now() + ttlMs });
		// A failed read is not remembered: the next call asks the store again.
		settings.catch(() => {
			if (cached.get(guildId)?.settings === settings) cached.delete(guildId);
		});
	};

	const read = async (guildId: string): Promise<ServerSettings> =>
		parseStoredSettings(await keyv.get(settingsKey(guildId)));

	const get = async (guildId: string): Promise<ServerSettings> => {
		const hit = cached.get(guildId);
		if (hit && hit.expiresAt > now()) return copyOf(await hit.settings);
		const settings = read(guildId);
		cache(guildId, settings);
		return copyOf(await settings);
	};

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
			// Under the lock the store itself is read: a cached copy may predate another process's change.
			const before = await read(guildId);
			const { after, result } = fn(before);
			if (after !== before) {
				try {
					await write(guildId, after);
				} finally {
					// Written or not (a failed write may still have landed), what this process knows is dropped.
					cached.delete(guildId);
				}
				// Set after the write: a read that started meanwhile and cached the old record is replaced.
				cache(guildId, Promise.resolve(copyOf(after)));
			} else {
				cache(guildId, Promise.resolve(copyOf(before)));
			}
			return result;
		});

	return {
		get,
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
			// those cost one (usually cached) read, no lock.
			if (pointingAt(await get(resource.guildId)).length === 0) return [];
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

/** Each caller gets its own copy: one that sorts or edits what it was given cannot change the cached one. */
function copyOf(settings: ServerSettings): ServerSettings {
	return { ...settings, deleted: [...settings.deleted] };
}

function withoutUndefined(change: SettingsChange): SettingsChange {
	return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as SettingsChange;
}
