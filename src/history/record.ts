import { zod } from '../lazy-packages.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { addDays, utcDateOf } from './utc-days.js';

export const HISTORY_SCHEMA_VERSION = 1;
/** Days of history kept per account when HISTORY_DAYS is not set. */
export const DEFAULT_HISTORY_DAYS = 400;

/** A figure and when it was read: epoch ms of the snapshot's `generated_at` (its fetch time when absent). */
export interface Reading {
	value: number;
	at: number;
}

/** What the history knows of one UTC day; an absent field is unknown, never 0. */
export interface HistoryDay {
	/** Sends that day from `daily_breakdown`; the latest snapshot wins. */
	sends?: Reading;
	/** `joins.all_time − joins.today` of a snapshot taken that day: joins before the day began. */
	joinsBefore?: Reading;
	/** `failed_all_time` of the day's earliest snapshot, the one nearest the start of the day. */
	failedAllTime?: Reading;
	/** `joins.today` of the day's latest snapshot: the day's joins so far, shown for today only. */
	joinsToday?: Reading;
}

/** One account's history, stored as is: plain JSON, epoch ms, a schema version. */
export interface HistoryRecord {
	v: typeof HISTORY_SCHEMA_VERSION;
	/** Epoch ms of the last fold. */
	updatedAt: number;
	/** Keyed by `YYYY-MM-DD` (UTC). */
	days: Record<string, HistoryDay>;
}

function buildRecordSchema() {
	const { z } = zod();
	const reading = z.object({ value: z.number().int().min(0), at: z.number() });
	const historyDay = z.object({
		sends: reading.optional(),
		joinsBefore: reading.optional(),
		failedAllTime: reading.optional(),
		joinsToday: reading.optional(),
	});
	return z.object({
		v: z.literal(HISTORY_SCHEMA_VERSION),
		updatedAt: z.number(),
		days: z.record(z.string().regex(/^\d{4}-\d{2}-\d{2}$/), historyDay),
	});
}
let recordSchema: ReturnType<typeof buildRecordSchema> | undefined;

/** A stored value as a record, or null when it is not one of this schema version. */
export function parseHistoryRecord(value: unknown): HistoryRecord | null {
	recordSchema ??= buildRecordSchema();
	const parsed = recordSchema.safeParse(value);
	return parsed.success ? (parsed.data as HistoryRecord) : null;
}

// Ties (two snapshots with the same generated_at) keep the larger count, so the order of folding never matters.
function later(kept: Reading | undefined, next: Reading): Reading {
	if (!kept || next.at > kept.at || (next.at === kept.at && next.value > kept.value)) return next;
	return kept;
}

function earlier(kept: Reading | undefined, next: Reading): Reading {
	if (!kept || next.at < kept.at || (next.at === kept.at && next.value > kept.value)) return next;
	return kept;
}

/** When the snapshot was generated, in epoch ms; `receivedAt` when the endpoint did not say. */
export function snapshotTime(snapshot: StatsSnapshot, receivedAt: number): number {
	const generated = snapshot.meta.generatedAt === null ? Number.NaN : Date.parse(snapshot.meta.generatedAt);
	return Number.isNaN(generated) ? receivedAt : generated;
}

export interface FoldOptions {
	/** HISTORY_DAYS: days kept, ending today. */
	historyDays?: number;
	/** Epoch ms the snapshot was fetched (default `now`): dates a snapshot without `generated_at`. */
	receivedAt?: number;
}

/**
 * Folds one snapshot into an account's record and returns the new record (the input is not changed).
 * `now` is the bot's clock (epoch ms): it decides which days are kept, the last `historyDays` days ending today,
 * plus tomorrow for a service whose clock runs ahead. Every
 * rule is order-free (latest or earliest reading wins), so snapshots folded out of order give the same record.
 */
export function foldSnapshot(
	record: HistoryRecord | null,
	snapshot: StatsSnapshot,
	now: number,
	options: FoldOptions = {},
): HistoryRecord {
	const at = snapshotTime(snapshot, options.receivedAt ?? now);
	const days: Record<string, HistoryDay> = { ...(record?.days ?? {}) };
	const update = (date: string, change: (day: HistoryDay) => HistoryDay) => {
		days[date] = change({ ...days[date] });
	};

	for (const { date, sends } of snapshot.sends.dailyBreakdown) {
		update(date, (day) => ({ ...day, sends: later(day.sends, { value: sends, at }) }));
	}

	const sampleDate = utcDateOf(at);
	const { allTime, today } = snapshot.joins;
	const failed = snapshot.sends.failedAllTime;
	update(sampleDate, (day) => {
		// A service whose today exceeds its all-time is inconsistent; that snapshot says nothing about earlier days.
		if (allTime !== null && today !== null && allTime >= today) {
			day.joinsBefore = earlier(day.joinsBefore, { value: allTime - today, at });
		}
		if (today !== null) day.joinsToday = later(day.joinsToday, { value: today, at });
		if (failed !== null) day.failedAllTime = earlier(day.failedAllTime, { value: failed, at });
		return day;
	});

	return { v: HISTORY_SCHEMA_VERSION, updatedAt: now, days: trimDays(days, now, options.historyDays) };
}

function trimDays(
	days: Record<string, HistoryDay>,
	now: number,
	historyDays = DEFAULT_HISTORY_DAYS,
): Record<string, HistoryDay> {
	const today = utcDateOf(now);
	const first = addDays(today, -(historyDays - 1));
	const last = addDays(today, 1);
	const kept: Record<string, HistoryDay> = {};
	for (const date of Object.keys(days).sort()) {
		const day = days[date];
		if (day && date >= first && date <= last && Object.keys(day).length > 0) kept[date] = day;
	}
	return kept;
}
