/** One day of the breakdown, after the client has sorted, merged and zero-filled it. */
export interface DailySends {
	/** UTC calendar date, YYYY-MM-DD. */
	date: string;
	sends: number;
}

/** A figure the endpoint left absent or null reads as null here and is shown as "—". */
export type Figure = number | null;

/** The validated, normalised answer of GET /api/v1/stats. */
export interface StatsSnapshot {
	sends: {
		today: Figure;
		weekly: Figure;
		monthly: Figure;
		allTime: Figure;
		failedAllTime: Figure;
		/** Oldest first, one entry per day, no gaps, no duplicates. */
		dailyBreakdown: DailySends[];
	};
	joins: {
		today: Figure;
		weekly: Figure;
		monthly: Figure;
		allTime: Figure;
	};
	meta: {
		/** ISO 8601 as the endpoint sent it, or null when absent. */
		generatedAt: string | null;
		/** The account name (`meta.user`), or null when absent. */
		user: string | null;
	};
}

/** What the stats client hands to commands: a snapshot and how fresh it is. */
export interface StatsResult {
	snapshot: StatsSnapshot;
	/** Epoch ms when this snapshot was fetched from the endpoint. */
	fetchedAt: number;
	/** True when the endpoint was unreachable and a cached snapshot is served instead. */
	isStale: boolean;
}
