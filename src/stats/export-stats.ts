import { buildExport, type ExportFile } from '../history/export-csv.js';
import { addDays, utcDateOf } from '../history/utc-days.js';
import { historyWithSnapshot, type HistoryDeps } from './account-history.js';
import type { StatsTarget } from './request.js';
import type { StatsDays } from '../stats-options.js';
import { fetchStatsFor, type FetchDeps } from './resolve-key.js';

export interface StatsExport extends ExportFile {
	/** `meta.user` of the account, or null when the endpoint did not name it. */
	accountName: string | null;
	/** First and last day of the file, `YYYY-MM-DD`. */
	from: string;
	to: string;
	/** False when every cell of the file would be empty. */
	hasData: boolean;
}

/**
 * The `/export` file: `days` UTC days ending today, from the account's history with a fresh snapshot folded
 * in (the same fetch as `/stats`, so it also feeds the history).
 */
export async function exportStats(
	ctx: FetchDeps & HistoryDeps & { now?: () => number },
	target: StatsTarget,
	options: { days: StatsDays; now?: number },
): Promise<StatsExport> {
	const now = options.now ?? ctx.now?.() ?? Date.now();
	const today = utcDateOf(now);
	const result = await fetchStatsFor(ctx, target);
	const record = await historyWithSnapshot(ctx, result, now);
	const file = buildExport(record, { days: options.days, today });
	const from = addDays(today, -(options.days - 1));
	const hasData = Object.keys(record.days).some((date) => date >= from && date <= today);
	return { ...file, accountName: result.snapshot.meta.user, from, to: today, hasData };
}
