import { buildExport, type ExportFile } from '../history/export-csv.js';
import { addDays, utcDateOf } from '../history/utc-days.js';
import { historyWithSnapshot, type HistoryDeps } from './account-history.js';
import type { StatsTarget } from './request.js';
import type { StatsDays } from '../stats-options.js';
import { fetchStatsFor, type FetchDeps } from './resolve-key.js';
import { rangeLength, type DateRange } from './date-range.js';
import { recordedDates } from '../history/daily-figures.js';

export interface StatsExport extends ExportFile {
	/** `meta.user` of the account, or null when the endpoint did not name it. */
	accountName: string | null;
	/** First and last day of the file, `YYYY-MM-DD`. */
	from: string;
	to: string;
	/** False when every cell of the file would be empty. */
	hasData: boolean;
	/** The first day the history knows, when the file starts before it (its first rows are then empty); else null. */
	knownFrom: string | null;
}

/**
 * The `/export` file: `days` UTC days ending today, or the chosen range (already checked), from the account's
 * history with a fresh snapshot folded in (the same fetch as `/stats`, so it also feeds the history).
 */
export async function exportStats(
	ctx: FetchDeps & HistoryDeps & { now?: () => number },
	target: StatsTarget,
	options: { days: StatsDays; range?: DateRange | null; now?: number },
): Promise<StatsExport> {
	const now = options.now ?? ctx.now?.() ?? Date.now();
	const today = utcDateOf(now);
	const result = await fetchStatsFor(ctx, target);
	const record = await historyWithSnapshot(ctx, result, now);
	const to = options.range?.to ?? today;
	const days = options.range ? rangeLength(options.range) : options.days;
	const file = buildExport(record, { days, today, to });
	const from = addDays(to, -(days - 1));
	const hasData = Object.keys(record.days).some((date) => date >= from && date <= to);
	const oldest = recordedDates(record)[0];
	const knownFrom = options.range && oldest !== undefined && oldest > from ? oldest : null;
	return { ...file, accountName: result.snapshot.meta.user, from, to, hasData, knownFrom };
}
