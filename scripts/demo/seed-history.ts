// Gives the demo a past: one end-of-day snapshot of the demo account for each of its past days,
// computed from the same events the bundled service holds, folded into the bot's history as the
// daily sampler would have done. The service itself answers with today's figures only.
import { DAY_MS, dayNumberOf, formatGeneratedAt } from '../../src/service/utc-time.js';
import { EVENT_KIND, type NormalizedEvent } from '../../src/service/events.js';
import { computeStatsBody, type DayCounts } from '../../src/service/stats-body.js';
import { parseStatsBody } from '../../src/stats-api/validate.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import type Keyv from 'keyv';
import { historyAccountId } from '../../src/history/account-id.js';
import { foldSnapshot, type HistoryRecord } from '../../src/history/record.js';

interface DemoHistoryOptions {
	user: string;
	events: readonly NormalizedEvent[];
	now: Date;
	days: number;
}

/**
 * One snapshot per past day (taken at 23:59 UTC of that day) folded into the account's history record, as the
 * daily sampler would have done, in memory: no store round trip per day. `historyDays` is the bot's HISTORY_DAYS.
 */
function foldDemoHistory(options: DemoHistoryOptions & { historyDays: number }): HistoryRecord | null {
	let record: HistoryRecord | null = null;
	for (const { snapshot, takenAt } of pastSnapshots(options)) {
		record = foldSnapshot(record, snapshot, Date.now(), { historyDays: options.historyDays, receivedAt: takenAt });
	}
	return record;
}

/** Puts the folded record in the bot's `history` namespace, before anything reads it (no cache to invalidate). */
export async function seedDemoHistory(
	history: Keyv,
	options: DemoHistoryOptions & { historyDays: number },
): Promise<void> {
	const record = foldDemoHistory(options);
	if (record) await history.set(historyAccountId(options.user), record);
}

function* pastSnapshots(options: DemoHistoryOptions): Generator<{ snapshot: StatsSnapshot; takenAt: number }> {
	const today = dayNumberOf(options.now.getTime());
	const byDay = new Map<number, DayCounts & { sendsFailed: number }>();
	for (const event of options.events) {
		const day = dayNumberOf(event.atMs);
		const counts = byDay.get(day) ?? { day, sendsOk: 0, sendsFailed: 0, joins: 0 };
		if (event.kind === EVENT_KIND.sendOk) counts.sendsOk += 1;
		else if (event.kind === EVENT_KIND.sendFailed) counts.sendsFailed += 1;
		else counts.joins += 1;
		byDay.set(day, counts);
	}
	for (let day = today - options.days; day < today; day += 1) {
		const takenAt = new Date((day + 1) * DAY_MS - 60_000);
		const upToDay = [...byDay.values()].filter((counts) => counts.day <= day);
		const totals = upToDay.reduce(
			(sum, counts) => ({
				sendsOk: sum.sendsOk + counts.sendsOk,
				sendsFailed: sum.sendsFailed + counts.sendsFailed,
				joins: sum.joins + counts.joins,
			}),
			{ sendsOk: 0, sendsFailed: 0, joins: 0 },
		);
		const body = computeStatsBody({
			user: options.user,
			totals,
			days: upToDay,
			now: takenAt,
			generatedAt: formatGeneratedAt(takenAt),
		});
		yield { snapshot: parseStatsBody(JSON.stringify(body)), takenAt: takenAt.getTime() };
	}
}
