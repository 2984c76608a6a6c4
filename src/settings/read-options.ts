import { UserFacingError } from '../errors.js';
import { isStatsDays, isStatsMetric, STATS_DAYS } from '../stats-options.js';
import { SETTING_OPTIONS, type SettingName } from './describe-settings.js';
import { isSettingsLanguage, type SettingsChange } from './settings-record.js';

/** The options of `/settings set` as any front end reads them (Discord's command options fit). */
export interface SettingsOptionReader {
	string(name: string): string | null;
	integer(name: string): number | null;
	channel(name: string): { id: string; type: number | null } | null;
	role(name: string): { id: string } | null;
}

/**
 * Text and announcement channels: the ones members read posts in. Discord resolves the channel's type;
 * when it did not (null), the option's own channel_types have already limited the choice.
 */
const POSTABLE_CHANNEL_TYPES: readonly (number | null)[] = [0, 5, null];

/**
 * The change `/settings set` asks for, checked again here: Discord enforces option types and choices,
 * a stale client or a crafted request may not.
 */
export function readSettingsChange(options: SettingsOptionReader): { change: SettingsChange; changed: SettingName[] } {
	const change: SettingsChange = {};
	const role = (name: 'serverStatsRoleId' | 'shareRoleId') => {
		const value = options.role(SETTING_OPTIONS[name]);
		if (value) change[name] = value.id;
	};
	const channel = (name: 'shareChannelId' | 'auditChannelId') => {
		const value = options.channel(SETTING_OPTIONS[name]);
		if (!value) return;
		if (!POSTABLE_CHANNEL_TYPES.includes(value.type)) {
			throw new UserFacingError('settings.notTextChannel', { option: SETTING_OPTIONS[name] });
		}
		change[name] = value.id;
	};
	role('serverStatsRoleId');
	role('shareRoleId');
	channel('shareChannelId');
	channel('auditChannelId');
	const days = options.integer(SETTING_OPTIONS.defaultDays);
	if (days !== null) {
		if (!isStatsDays(days)) throw new UserFacingError('stats.invalidDays', { choices: STATS_DAYS.join(', ') });
		change.defaultDays = days;
	}
	const metric = options.string(SETTING_OPTIONS.defaultMetric);
	if (metric !== null) {
		if (!isStatsMetric(metric)) throw new UserFacingError('stats.invalidMetric');
		change.defaultMetric = metric;
	}
	const language = options.string(SETTING_OPTIONS.language);
	if (language !== null && isSettingsLanguage(language)) change.language = language;
	const changed = Object.keys(change) as SettingName[];
	if (changed.length === 0) throw new UserFacingError('settings.noChanges');
	return { change, changed };
}
