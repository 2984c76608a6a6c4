import { REPORT_PERMISSIONS, type ReportPause, type ReportRecord } from './report-record.js';
import type { ReportStore } from './report-store.js';
import { ChannelRefusedError } from '../errors.js';
import type { GuildApi } from '../guild-api.js';
import { ReportPauseError, reportNonce, type ReportPost } from './build-report-post.js';
import { cronPattern } from './schedule.js';
import type { JobLog } from '../core/periodic-runner.js';

export interface PostReportDeps {
	reports: Pick<ReportStore, 'get' | 'put'>;
	buildPost: (record: ReportRecord) => Promise<ReportPost>;
	postMessage: GuildApi['postMessage'];
	now: () => number;
	log: JobLog;
}

export type PostOutcome = 'posted' | 'skipped' | { paused: ReportPause };

/**
 * Posts one due report. The record is read again first: it may have been removed, paused or rescheduled since
 * the scan. A failure that only an admin can fix pauses the report, so nothing retries against Discord.
 */
export async function postReport(deps: PostReportDeps, scanned: ReportRecord, slot: string): Promise<PostOutcome> {
	const record = await deps.reports.get(scanned.guildId, scanned.channelId);
	if (!record || record.paused || !sameSchedule(record, scanned) || record.since !== scanned.since) return 'skipped';
	try {
		const post = await deps.buildPost(record);
		await deps.postMessage(record.channelId, post, { nonce: reportNonce(record, slot) });
		deps.log.info({ guildId: record.guildId, channelId: record.channelId, slot }, 'report posted');
		return 'posted';
	} catch (error) {
		const reason = pauseReasonOf(error);
		if (reason === null) throw error;
		const paused: ReportPause = { reason, at: deps.now() };
		// Discord does not say which permission is missing: name every one the report needs.
		if (reason === 'missingPermissions') paused.permissions = [...REPORT_PERMISSIONS];
		await deps.reports.put({ ...record, paused });
		deps.log.warn({ guildId: record.guildId, channelId: record.channelId, reason }, 'report paused');
		return { paused };
	}
}

function sameSchedule(a: ReportRecord, b: ReportRecord): boolean {
	return cronPattern(a) === cronPattern(b) && a.timezone === b.timezone;
}

/** A failure only an admin can fix: the report waits for them instead of retrying against Discord. */
function pauseReasonOf(error: unknown): ReportPause['reason'] | null {
	if (error instanceof ReportPauseError || error instanceof ChannelRefusedError) return error.reason;
	return null;
}
