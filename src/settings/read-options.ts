import { isChannelFor } from '../channel-kinds.js';
import { UserFacingError } from '../errors.js';
import {
	DEFAULT_DAYS,
	DEFAULT_METRIC,
	isStatsDays,
	isStatsMetric,
	STATS_DAYS,
	type StatsDays,
} from '../stats-options.js';
import { SETTING_NAMES, SETTING_OPTIONS, type SettingName } from './describe-settings.js';
import { isSettingsLanguage, type SettingsChange } from './settings-record.js';

/** The options of `/settings set` as any front end reads them (Discord's command options fit). */
export interface SettingsOptionReader {
	string(name: string): string | null;
	integer(name: string): number | null;
	channel(name: string): { id: string; type: number | null } | null;
	role(name: string): { id: string } | null;
}

/** A channel as a front end picked it; `type` null when it was not told (Discord's picker already limited it). */
export interface SettingsChannel {
	id: string;
	type: number | null;
}

/**
 * `/settings set` as plain values, named as its options: what the slash command's options and the dashboard's form
 * both give. An absent field is left as it is; null or '' puts that setting back to its default (a role or channel
 * unset). A bare channel id is a channel whose type was not told.
 */
export interface SettingsInput {
	'server-stats-role'?: string | null;
	'share-role'?: string | null;
	'share-channel'?: SettingsChannel | string | null;
	'default-days'?: number | string | null;
	'default-metric'?: string | null;
	language?: string | null;
	'audit-channel'?: SettingsChannel | string | null;
}

export interface ParsedSettingsChange {
	change: SettingsChange;
	/** The settings the input named, in the order `/settings show` lists them. */
	changed: SettingName[];
}

const SNOWFLAKE = /^\d{17,20}$/;

/** The options a `/settings set` carries; Discord sends only those the member gave, never an empty one. */
export function readSettingsOptions(options: SettingsOptionReader): SettingsInput {
	const input: SettingsInput = {};
	const serverStatsRole = options.role(SETTING_OPTIONS.serverStatsRoleId);
	if (serverStatsRole) input['server-stats-role'] = serverStatsRole.id;
	const shareRole = options.role(SETTING_OPTIONS.shareRoleId);
	if (shareRole) input['share-role'] = shareRole.id;
	const shareChannel = options.channel(SETTING_OPTIONS.shareChannelId);
	if (shareChannel) input['share-channel'] = shareChannel;
	const days = options.integer(SETTING_OPTIONS.defaultDays);
	if (days !== null) input['default-days'] = days;
	const metric = options.string(SETTING_OPTIONS.defaultMetric);
	if (metric !== null) input['default-metric'] = metric;
	const language = options.string(SETTING_OPTIONS.language);
	if (language !== null) input.language = language;
	const auditChannel = options.channel(SETTING_OPTIONS.auditChannelId);
	if (auditChannel) input['audit-channel'] = auditChannel;
	return input;
}

/**
 * The change an input asks for, checked value by value: Discord enforces option types and choices, a stale client,
 * a crafted request or a form posted by hand may not.
 */
export function parseSettingsInput(input: SettingsInput, guildId: string): ParsedSettingsChange {
	const change: SettingsChange = {};
	const given = (name: SettingName) => input[SETTING_OPTIONS[name]] !== undefined;
	const isEmpty = (value: unknown) => value === null || value === '';
	for (const name of ['serverStatsRoleId', 'shareRoleId'] as const) {
		if (given(name)) change[name] = roleIdOf(input[SETTING_OPTIONS[name]], guildId);
	}
	for (const name of ['shareChannelId', 'auditChannelId'] as const) {
		if (given(name)) change[name] = postChannelIdOf(input[SETTING_OPTIONS[name]], SETTING_OPTIONS[name]);
	}
	const days = input['default-days'];
	if (days !== undefined) change.defaultDays = isEmpty(days) ? DEFAULT_DAYS : daysOf(days);
	const metric = input['default-metric'];
	if (metric !== undefined) {
		if (isEmpty(metric)) change.defaultMetric = DEFAULT_METRIC;
		else if (isStatsMetric(metric)) change.defaultMetric = metric;
		else throw new UserFacingError('stats.invalidMetric');
	}
	const language = input.language;
	if (language !== undefined) {
		if (isEmpty(language)) change.language = 'auto';
		else if (isSettingsLanguage(language)) change.language = language;
		// Discord offers only the listed languages, so no command words exist for another: a crafted request.
		else throw new UserFacingError('errors.unsupported');
	}
	const changed = SETTING_NAMES.filter((name) => name in change);
	if (changed.length === 0) throw new UserFacingError('settings.noChanges');
	return { change, changed };
}

/** `/settings set` read and checked in one step. */
export function readSettingsChange(options: SettingsOptionReader, guildId: string): ParsedSettingsChange {
	return parseSettingsInput(readSettingsOptions(options), guildId);
}

function roleIdOf(value: string | null | undefined, guildId: string): string | null {
	if (value === null || value === undefined || value === '') return null;
	// A role id comes from Discord's picker or the page's list: anything else was typed by hand. @everyone's id is
	// the server's: Discord's picker offers it, yet as a limit it would let everyone through.
	if (!SNOWFLAKE.test(value) || value === guildId) throw new UserFacingError('settings.roleNotChoosable');
	return value;
}

/** Share and audit posts go to channels that take messages: text and announcement channels. */
function postChannelIdOf(value: SettingsChannel | string | null | undefined, option: string): string | null {
	if (value === null || value === undefined || value === '') return null;
	const channel = typeof value === 'string' ? { id: value, type: null } : value;
	if (!SNOWFLAKE.test(channel.id) || !isChannelFor('posts', channel.type)) {
		throw new UserFacingError('settings.notTextChannel', { option });
	}
	return channel.id;
}

function daysOf(value: number | string): StatsDays {
	const days = typeof value === 'number' ? value : /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
	if (!isStatsDays(days)) throw new UserFacingError('stats.invalidDays', { choices: STATS_DAYS.join(', ') });
	return days;
}
