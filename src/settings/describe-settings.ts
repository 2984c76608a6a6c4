import { LANGUAGE_NAMES, resolveLocale, type Translate } from '../i18n/index.js';
import type { ServerSettings } from './settings-record.js';

/** Each setting as `/settings set` names it, in the order `/settings show` lists them. */
export const SETTING_OPTIONS = {
	serverStatsRoleId: 'server-stats-role',
	shareRoleId: 'share-role',
	shareChannelId: 'share-channel',
	defaultDays: 'default-days',
	defaultMetric: 'default-metric',
	language: 'language',
	auditChannelId: 'audit-channel',
} as const satisfies Record<Exclude<keyof ServerSettings, 'deleted'>, string>;

export type SettingName = keyof typeof SETTING_OPTIONS;
export const SETTING_NAMES = Object.keys(SETTING_OPTIONS) as SettingName[];

const SHOW_KEYS = {
	serverStatsRoleId: 'settings.show.serverStatsRole',
	shareRoleId: 'settings.show.shareRole',
	shareChannelId: 'settings.show.shareChannel',
	defaultDays: 'settings.show.defaultDays',
	defaultMetric: 'settings.show.defaultMetric',
	language: 'settings.show.language',
	auditChannelId: 'settings.show.auditChannel',
} as const;

/** One setting's value in words; a role or channel is a mention, which Discord shows by its name. */
export function describeValue(
	t: Translate,
	settings: ServerSettings,
	name: SettingName,
	guildLocale: string | null,
): string {
	const deleted = settings.deleted.includes(name as never);
	switch (name) {
		case 'serverStatsRoleId':
		case 'shareRoleId': {
			const roleId = settings[name];
			if (roleId !== null) return t('settings.value.role', { roleId });
			return t(deleted ? 'settings.value.roleDeleted' : 'settings.value.everyone');
		}
		case 'shareChannelId': {
			const channelId = settings[name];
			if (channelId !== null) return t('settings.value.channel', { channelId });
			return t(deleted ? 'settings.value.channelDeleted' : 'settings.value.anyChannel');
		}
		case 'auditChannelId': {
			const channelId = settings[name];
			if (channelId !== null) return t('settings.value.channel', { channelId });
			return t(deleted ? 'settings.value.auditDeleted' : 'settings.value.auditOff');
		}
		case 'defaultDays':
			return t(`choices.days.${settings.defaultDays}`);
		case 'defaultMetric':
			return t(`choices.metric.${settings.defaultMetric}`);
		case 'language':
			return settings.language === 'auto'
				? t('settings.value.languageAuto', { language: LANGUAGE_NAMES[resolveLocale(guildLocale)] })
				: LANGUAGE_NAMES[settings.language];
	}
}

/** The `/settings show` text: a header and one line per setting. */
export function describeSettings(t: Translate, settings: ServerSettings, guildLocale: string | null): string {
	const lines = SETTING_NAMES.map((name) =>
		t(SHOW_KEYS[name], { value: describeValue(t, settings, name, guildLocale) }),
	);
	return [t('settings.showHeader'), ...lines].join('\n');
}

/** `option: value` for each setting `change` touched, in the order `show` lists them. */
export function describeChanges(
	t: Translate,
	after: ServerSettings,
	changed: readonly SettingName[],
	guildLocale: string | null,
): string[] {
	return SETTING_NAMES.filter((name) => changed.includes(name)).map((name) =>
		t('settings.change', { option: SETTING_OPTIONS[name], value: describeValue(t, after, name, guildLocale) }),
	);
}
