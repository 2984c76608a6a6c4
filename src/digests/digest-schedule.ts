import { latestDueIn, localSlot, nextDueAfter } from '../reports/schedule.js';
import type { DigestRecord } from './digest-record.js';

type DigestSchedule = Pick<DigestRecord, 'weekday' | 'hour' | 'timezone'>;

const WEEK_MS = 7 * 86_400_000;

/**
 * The report schedule's weekly rule, so a digest and a weekly report fall due alike: the top of the local hour on
 * the weekday, computed by croner in the member's zone (a spring-forward hour that does not exist that day runs at
 * the first valid minute, the same day; an autumn hour that happens twice runs once).
 */
const asWeekly = (schedule: DigestSchedule) => ({ ...schedule, every: 'weekly' as const });

/** Epoch ms of the next digest strictly after `after`, or null when the zone never has that hour. */
export function nextDigestAt(schedule: DigestSchedule, after: number): number | null {
	return nextDueAfter(asWeekly(schedule), after);
}

export interface DueDigest {
	/** Epoch ms it fell due. */
	dueAt: number;
	/** ISO week of the local due day, e.g. `2026-W14`: what "once a week" counts. */
	week: string;
}

/**
 * The digest due now, if any: the latest due time up to `now`, after the digest was turned on, on the member's
 * local day of `now` (one missed while the bot was down goes out later that day, never on a later one), and of a
 * week that has had none yet.
 */
export function dueDigest(record: DigestRecord, now: number): DueDigest | null {
	if (!record.enabled) return null;
	const dueAt = latestDueIn(asWeekly(record), Math.max(record.enabledAt, now - WEEK_MS), now);
	if (dueAt === null) return null;
	if (localDay(record.timezone, dueAt) !== localDay(record.timezone, now)) return null;
	const week = isoWeekOf(localDay(record.timezone, dueAt));
	return week === record.lastSentWeek ? null : { dueAt, week };
}

/** `YYYY-MM-DD` of an instant in the zone. */
export function localDay(timezone: string, at: number): string {
	return localSlot(timezone, at).slice(0, 10);
}

/** ISO 8601 week of a calendar date (`2027-01-01` is in `2026-W53`): weeks start on Monday. */
export function isoWeekOf(day: string): string {
	const date = new Date(`${day}T00:00:00Z`);
	const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
	// The Thursday of the same week decides the year the week belongs to.
	const thursday = new Date(date.getTime() + (3 - weekday) * 86_400_000);
	const year = thursday.getUTCFullYear();
	const firstThursday = Date.UTC(year, 0, 1 + ((4 - new Date(Date.UTC(year, 0, 1)).getUTCDay() + 7) % 7));
	const week = 1 + Math.round((thursday.getTime() - firstThursday) / WEEK_MS);
	return `${year}-W${String(week).padStart(2, '0')}`;
}
