import type { BotPermission } from '../permissions.js';
import { REPORT_PREFIX } from '../core/record-kinds.js';

/** How often a report is posted; daily shows the last 7 days, weekly the last 30. */
export const REPORT_FREQUENCIES = ['daily', 'weekly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/** Cron's day numbers follow this order from Sunday = 0; the option values are these names. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The channel permissions a report needs, in the order replies name them. */
export const REPORT_PERMISSIONS = [
	'viewChannel',
	'sendMessages',
	'embedLinks',
	'attachFiles',
] as const satisfies readonly BotPermission[];

export type PauseReason = 'missingPermissions' | 'channelGone' | 'keyRejected' | 'noServerKey';

export interface ReportPause {
	reason: PauseReason;
	/** For missingPermissions: the ones known to be missing (all four when Discord did not say which). */
	permissions?: BotPermission[];
	/** Epoch ms. */
	at: number;
}

export const REPORT_SCHEMA_VERSION = 1;
export const MAX_REPORTS_PER_SERVER = 5;
/** A due time missed while no process ran is still posted when one comes back within this long. */
export const CATCH_UP_MS = 3_600_000;

/** One scheduled report, stored as plain JSON under reportKey(guildId, channelId). */
export interface ReportRecord {
	v: typeof REPORT_SCHEMA_VERSION;
	guildId: string;
	channelId: string;
	every: ReportFrequency;
	/** Local hour 0–23 in `timezone`. */
	hour: number;
	/** The IANA name as the member typed it (Node rewrites some names when resolving them). */
	timezone: string;
	/** Only for weekly reports. */
	weekday: Weekday | null;
	/** Who added (or last re-added) it. */
	createdBy: string;
	/** Epoch ms of the last add or resume: due times before it are never posted. */
	since: number;
	/** The server's Discord locale when it was added, for the posts' language. */
	guildLocale: string | null;
	paused: ReportPause | null;
}

export const reportKey = (guildId: string, channelId: string): string => `${REPORT_PREFIX}${guildId}:${channelId}`;
export const reportKeyPrefix = (guildId: string): string => `${REPORT_PREFIX}${guildId}:`;

export function isReportFrequency(value: unknown): value is ReportFrequency {
	return (REPORT_FREQUENCIES as readonly unknown[]).includes(value);
}

export function isWeekday(value: unknown): value is Weekday {
	return (WEEKDAYS as readonly unknown[]).includes(value);
}

/**
 * A report paused because its channel was deleted can never post again, and its channel cannot be picked
 * again: it does not count towards MAX_REPORTS_PER_SERVER (it stays listed until `/report remove`).
 */
export function countsTowardsLimit(record: Pick<ReportRecord, 'paused'>): boolean {
	return record.paused?.reason !== 'channelGone';
}

/** The days a report's post covers. */
export function reportDays(every: ReportFrequency): 7 | 30 {
	return every === 'daily' ? 7 : 30;
}

/** A stored value back into a record; null for anything that is not one of ours (it is then ignored). */
export function parseReportRecord(raw: unknown): ReportRecord | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const record = raw as Partial<ReportRecord>;
	if (record.v !== REPORT_SCHEMA_VERSION) return null;
	if (typeof record.guildId !== 'string' || typeof record.channelId !== 'string') return null;
	if (!isReportFrequency(record.every) || !Number.isInteger(record.hour)) return null;
	if (typeof record.timezone !== 'string' || typeof record.since !== 'number') return null;
	if (record.weekday !== null && !isWeekday(record.weekday)) return null;
	return record as ReportRecord;
}
