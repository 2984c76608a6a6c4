// Snapshots as the stats client hands them over, built from the few figures a history test cares about.
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';

export interface SnapshotFigures {
	/** ISO 8601, or null for a snapshot without generated_at. */
	generatedAt: string | null;
	user?: string | null;
	/** date → sends, in any order. */
	breakdown?: Record<string, number>;
	joinsAllTime?: number | null;
	joinsToday?: number | null;
	failedAllTime?: number | null;
	sendsToday?: number | null;
	sendsWeekly?: number | null;
	sendsMonthly?: number | null;
}

export function makeSnapshot(figures: SnapshotFigures): StatsSnapshot {
	const breakdown = Object.entries(figures.breakdown ?? {})
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([date, sends]) => ({ date, sends }));
	return {
		sends: {
			today: figures.sendsToday ?? null,
			weekly: figures.sendsWeekly ?? null,
			monthly: figures.sendsMonthly ?? null,
			allTime: null,
			failedAllTime: figures.failedAllTime ?? null,
			dailyBreakdown: breakdown,
		},
		joins: {
			today: figures.joinsToday ?? null,
			weekly: null,
			monthly: null,
			allTime: figures.joinsAllTime ?? null,
		},
		meta: { generatedAt: figures.generatedAt, user: figures.user === undefined ? 'acme' : figures.user },
	};
}

/** A snapshot at `time` (ISO) saying `before` joins happened before that day and `today` during it. */
export function joinsSnapshot(time: string, before: number, today: number, failedAllTime: number | null = null) {
	return makeSnapshot({ generatedAt: time, joinsAllTime: before + today, joinsToday: today, failedAllTime });
}
