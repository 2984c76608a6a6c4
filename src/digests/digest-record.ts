import { isWeekday, type Weekday } from '../reports/report-record.js';
import { DIGEST_PREFIX } from '../core/record-kinds.js';

export const DIGEST_SCHEMA_VERSION = 1;

/** Why the bot stopped a digest by itself: Discord refused the direct message (50007). */
export interface DigestStop {
	reason: 'dmRefused';
	/** Epoch ms. */
	at: number;
}

/** One member's weekly digest: when it goes out, in what language, and what was last sent. */
export interface DigestRecord {
	v: typeof DIGEST_SCHEMA_VERSION;
	userId: string;
	enabled: boolean;
	weekday: Weekday;
	/** Local hour 0–23 in `timezone`. */
	hour: number;
	/** An IANA name the runtime knows (checked when set). */
	timezone: string;
	/** The member's Discord locale as last seen in an interaction: the digest is written in it. */
	locale: string;
	/** Epoch ms the digest was (last) turned on: a due time before it never counts as missed. */
	enabledAt: number;
	/** `2026-W14`: the ISO week (of the local due day) of the last digest sent, so a week never gets two. */
	lastSentWeek: string | null;
	lastSentAt: number | null;
	/** Set when the bot turned the digest off by itself; cleared by `/digest on`. */
	stopped: DigestStop | null;
}

export const digestKey = (userId: string): string => `${DIGEST_PREFIX}${userId}`;
export { DIGEST_PREFIX };

/** A stored value back into a record; null for anything that is not one of ours. */
export function parseDigestRecord(raw: unknown): DigestRecord | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const record = raw as Partial<DigestRecord>;
	if (record.v !== DIGEST_SCHEMA_VERSION || typeof record.userId !== 'string') return null;
	if (typeof record.enabled !== 'boolean' || !isWeekday(record.weekday) || typeof record.hour !== 'number') return null;
	if (typeof record.timezone !== 'string' || typeof record.locale !== 'string') return null;
	return record as DigestRecord;
}
