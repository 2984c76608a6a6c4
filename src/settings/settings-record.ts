import { isLocale, type Locale } from '../i18n/index.js';
import { isStatsDays, isStatsMetric, type StatsDays, type StatsMetric } from '../stats-options.js';

export type SettingsLanguage = 'auto' | Locale;

/** Settings that point at a role or a channel: Discord may delete what they point at. */
export const ROLE_SETTINGS = ['serverStatsRoleId', 'shareRoleId'] as const;
export const CHANNEL_SETTINGS = ['shareChannelId', 'auditChannelId'] as const;
export type RoleSetting = (typeof ROLE_SETTINGS)[number];
export type ChannelSetting = (typeof CHANNEL_SETTINGS)[number];
export type ResourceSetting = RoleSetting | ChannelSetting;

/** One server's settings, as the rules read them. A null role or channel means "unset". */
export interface ServerSettings {
	serverStatsRoleId: string | null;
	shareRoleId: string | null;
	shareChannelId: string | null;
	auditChannelId: string | null;
	defaultDays: StatsDays;
	defaultMetric: StatsMetric;
	language: SettingsLanguage;
	/** Settings whose role or channel Discord reported deleted: unset now, and `/settings show` says why. */
	deleted: ResourceSetting[];
}

export type SettingsChange = Partial<Omit<ServerSettings, 'deleted'>>;

/** Today's behaviour: everyone, any channel, 30 days, sends, the server's language, no audit. */
export const DEFAULT_SETTINGS: Readonly<ServerSettings> = Object.freeze({
	serverStatsRoleId: null,
	shareRoleId: null,
	shareChannelId: null,
	auditChannelId: null,
	defaultDays: 30,
	defaultMetric: 'sends',
	language: 'auto',
	deleted: [],
});

/** Bumped when the stored shape changes; a reader upgrades older records on the fly. */
export const SETTINGS_SCHEMA_VERSION = 1;

export interface StoredSettings extends ServerSettings {
	version: number;
	updatedAt: number;
}

export function isSettingsLanguage(value: unknown): value is SettingsLanguage {
	return value === 'auto' || isLocale(value);
}

const SNOWFLAKE = /^\d{17,20}$/;
const RESOURCE_SETTINGS: readonly ResourceSetting[] = [...ROLE_SETTINGS, ...CHANNEL_SETTINGS];

/**
 * Reads a stored record field by field: a value that is missing or not understood (a newer or
 * damaged record) falls back to its default, so a bad field never locks a server out.
 */
export function parseStoredSettings(raw: unknown): ServerSettings {
	const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
	const snowflake = (value: unknown) => (typeof value === 'string' && SNOWFLAKE.test(value) ? value : null);
	return {
		serverStatsRoleId: snowflake(record.serverStatsRoleId),
		shareRoleId: snowflake(record.shareRoleId),
		shareChannelId: snowflake(record.shareChannelId),
		auditChannelId: snowflake(record.auditChannelId),
		defaultDays: isStatsDays(record.defaultDays) ? record.defaultDays : DEFAULT_SETTINGS.defaultDays,
		defaultMetric: isStatsMetric(record.defaultMetric) ? record.defaultMetric : DEFAULT_SETTINGS.defaultMetric,
		language: isSettingsLanguage(record.language) ? record.language : DEFAULT_SETTINGS.language,
		deleted: Array.isArray(record.deleted)
			? RESOURCE_SETTINGS.filter((name) => (record.deleted as unknown[]).includes(name))
			: [],
	};
}

export function isDefault(settings: ServerSettings): boolean {
	return (Object.keys(DEFAULT_SETTINGS) as (keyof ServerSettings)[]).every((name) =>
		name === 'deleted' ? settings.deleted.length === 0 : settings[name] === DEFAULT_SETTINGS[name],
	);
}
