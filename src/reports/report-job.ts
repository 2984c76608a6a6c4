import { errorName, type JobLog, type PeriodicJob, type Turn } from '../core/periodic-runner.js';
import { CATCH_UP_MS, type ReportRecord } from './report-record.js';
import type { ReportStore } from './report-store.js';
import { latestDueIn, localSlot, reportDelayMs } from './schedule.js';

/**
 * How often the store is read, so reports added or removed by another process are seen. Scans fall on whole
 * minutes, as every due time does (a local hour is a whole minute in UTC in every zone), so none is met late.
 */
const RESCAN_MS = 60_000;
/** The once-per-slot claim outlives the catch-up window by far; the slot key holds the local date anyway. */
const SLOT_CLAIM_TTL_MS = 2 * 86_400_000;

export interface ReportJobDeps {
	reports: Pick<ReportStore, 'listAll'>;
	/** True for the one caller, across every process sharing the store, that first claims `key`. */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	/** Posts one due report; called at most once per report and slot in total. Errors are logged. */
	post: (record: ReportRecord, dueAt: number, slot: string) => Promise<void>;
	/** Epoch ms. */
	now: () => number;
	log: JobLog;
	/**
	 * How often the store is read, one minute unless a test wants fewer scans. Scans fall on its whole
	 * multiples, so a due time that is not one is met by the scan after it (late, within the hour).
	 */
	rescanMs?: number;
}

export const reportSlotClaimKey = (record: Pick<ReportRecord, 'guildId' | 'channelId'>, slot: string): string =>
	`report-post:${record.guildId}:${record.channelId}:${slot}`;

/**
 * Posts each report at its due local time plus the server's delay (reportDelayMs). Every process runs one and reads all reports; the due time is
 * claimed in the store under (report, local date and time), so exactly one process posts it. On start, and
 * on every scan, a due time up to an hour old that nobody posted is posted late (never one from before the
 * report was added or resumed). Posts go one after another.
 */
export function reportJob(options: ReportJobDeps): PeriodicJob {
	const { now, log } = options;
	/** Slots this process already settled (posted, lost to another process, or failed): no second claim. */
	const settled = new Map<string, number>();

	const runDue = async (record: ReportRecord, time: number) => {
		// Seen from the report's delayed clock: it is due `delay` after its local time, late for an hour after that,
		// and never for a time whose delayed post would come before the report was added or resumed.
		const delay = reportDelayMs(record);
		const dueAt = latestDueIn(record, Math.max(time - CATCH_UP_MS, record.since) - delay, time - delay);
		if (dueAt === null) return;
		const slot = localSlot(record.timezone, dueAt);
		const claimKey = reportSlotClaimKey(record, slot);
		if (settled.has(claimKey)) return;
		let won: boolean;
		try {
			won = await options.claimOnce(claimKey, SLOT_CLAIM_TTL_MS);
		} catch (error) {
			// Not settled: the next scan tries again while the slot is within the hour.
			log.warn(
				{ guildId: record.guildId, channelId: record.channelId, error: errorName(error) },
				'report claim failed',
			);
			return;
		}
		settled.set(claimKey, dueAt + delay);
		if (!won) return;
		try {
			await options.post(record, dueAt, slot);
		} catch (error) {
			log.warn(
				{ guildId: record.guildId, channelId: record.channelId, slot, error: errorName(error) },
				'report not posted',
			);
		}
	};

	/** One pass over every report, posting each that is due. */
	const scan = async (turn: Turn) => {
		for await (const record of options.reports.listAll()) {
			if (turn.stopping) break;
			if (record.paused) continue;
			await runDue(record, now());
		}
		for (const [key, postAt] of settled) if (postAt < now() - CATCH_UP_MS) settled.delete(key);
	};

	return { name: 'report scan', everyMs: options.rescanMs ?? RESCAN_MS, turn: scan, log };
}
