// Report records and a logger that keeps what it was told, for the report tests.
import { REPORT_SCHEMA_VERSION, type ReportRecord } from '../../src/reports/report-record.js';

export function makeReport(overrides: Partial<ReportRecord> = {}): ReportRecord {
	return {
		v: REPORT_SCHEMA_VERSION,
		guildId: '100000000000000001',
		channelId: '200000000000000001',
		every: 'daily',
		hour: 9,
		timezone: 'UTC',
		weekday: null,
		createdBy: '300000000000000001',
		since: Date.parse('2026-01-01T00:00:00Z'),
		guildLocale: 'en-US',
		paused: null,
		...overrides,
	};
}

export function quietLog() {
	const lines: { level: string; fields: object; message: string }[] = [];
	const at = (level: string) => (fields: object, message: string) => lines.push({ level, fields, message });
	return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}
