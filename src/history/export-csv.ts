import { addDays } from './utc-days.js';
import type { HistoryRecord } from './record.js';
import { dailySeries } from './daily-figures.js';
import type { DailyFigures } from './daily-figures.js';

export const EXPORT_HEADER = ['date', 'sends', 'joins', 'failed_sends'] as const;
const CRLF = '\r\n';

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: string | number | null): string {
	if (value === null) return '';
	const text = String(value);
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV of a series: header, one row per day in the given order, empty cells where unknown, CRLF lines. */
export function buildExportCsv(series: readonly DailyFigures[]): string {
	const rows = [EXPORT_HEADER.map(csvField).join(',')];
	for (const day of series) rows.push([day.date, day.sends, day.joins, day.failedSends].map(csvField).join(','));
	return rows.join(CRLF) + CRLF;
}

/** `adstats-<first day>-<last day>.csv`. */
export function exportFileName(first: string, last: string): string {
	return `adstats-${first}-${last}.csv`;
}

export interface ExportFile {
	fileName: string;
	csv: string;
}

/**
 * The `/export` attachment: `days` rows ending on `to` (default `today`, the bot's UTC date), oldest first.
 */
export function buildExport(
	record: HistoryRecord | null,
	options: { days: number; today: string; to?: string },
): ExportFile {
	const last = options.to ?? options.today;
	const first = addDays(last, -(options.days - 1));
	const series = dailySeries(record, { from: first, to: last, today: options.today });
	return { fileName: exportFileName(first, last), csv: buildExportCsv(series) };
}
