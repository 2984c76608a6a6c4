import { createHash } from 'node:crypto';
import { DirectMessagesClosedError, KeyRejectedError, UserFacingError } from '../errors.js';
import type { GuildApi } from '../guild-api.js';
import type { ChannelMessage } from '../message.js';
import { errorName, spreadOffset, type JobLog, type PeriodicJob } from '../core/periodic-runner.js';
import type { ClaimResult } from '../core/claims.js';
import { forEachLimited } from '../watch/periodic.js';
import type { DigestRecord } from './digest-record.js';
import { dueDigest, type DueDigest } from './digest-schedule.js';
import type { DigestStore } from './digest-store.js';

/** How often the job looks for due digests: the digest goes out within the member's hour, never at its top. */
export const DIGEST_CHECK_MS = 5 * 60_000;
/**
 * Each member's digest waits a stable part of the hour after its due time (a hash of the member), so thousands
 * due at 09:00 on Monday spread over 09:00–09:55 instead of all reaching Discord at once. Under an hour minus one
 * check, so it still goes out in the chosen hour.
 */
export const DIGEST_SPREAD_MS = 60 * 60_000 - DIGEST_CHECK_MS;
/** How long one process holds a member's week while it builds and sends: a crash frees it for another. */
export const DIGEST_SEND_CLAIM_MS = 10 * 60_000;
/** Digests built and sent at once per process. */
const CONCURRENCY = 4;

export interface DigestJobDeps {
	digests: DigestStore;
	buildMessage(record: DigestRecord, now: number): Promise<ChannelMessage>;
	sendDirectMessage: GuildApi['sendDirectMessage'];
	claim(key: string, ttlMs: number): Promise<ClaimResult>;
	now: () => number;
	log: JobLog;
}

export type DigestOutcome = 'sent' | 'notDue' | 'taken' | 'turnedOff' | 'skipped' | 'failed';

/** The digest due now for the member, counting their spread offset; null when none is. */
export function digestDueNow(record: DigestRecord, now: number): DueDigest | null {
	const due = dueDigest(record, now);
	return due && now >= due.dueAt + spreadOffset(record.userId, DIGEST_SPREAD_MS) ? due : null;
}

/** At most 25 characters, the same in every process for one member and week. */
export const digestNonce = (userId: string, week: string): string =>
	createHash('sha256').update(`digest:${userId}:${week}`).digest('hex').slice(0, 25);

/**
 * Sends the member's digest if one is due, once per member and week in total: a claim on the week holds off the
 * other processes while this one sends, and the week stored as sent holds off everyone after (restarts included).
 * Discord's 50007 turns the digest off with the reason; no retry. A failure to build (the stats service down)
 * frees the week, so the next check tries again the same day.
 */
export async function sendDueDigest(deps: DigestJobDeps, record: DigestRecord): Promise<DigestOutcome> {
	const due = digestDueNow(record, deps.now());
	if (!due) return 'notDue';
	const claim = await deps.claim(`digest-send:${record.userId}:${due.week}`, DIGEST_SEND_CLAIM_MS);
	if (!claim.claimed) return 'taken';
	// Read again under the claim: another process may have sent it since the list was read, its claim since expired.
	const current = await deps.digests.get(record.userId);
	const still = current && digestDueNow(current, deps.now());
	if (!current || !still || still.week !== due.week) {
		await claim.release();
		return 'notDue';
	}
	let message: ChannelMessage;
	try {
		message = await deps.buildMessage(current, deps.now());
	} catch (error) {
		await claim.release();
		// Unlinked, or a key that stopped working: nothing to send this week until they link again.
		if (error instanceof UserFacingError || error instanceof KeyRejectedError) {
			deps.log.info({ job: 'digests', reason: errorName(error) }, 'digest skipped: no usable link');
			return 'skipped';
		}
		throw error;
	}
	try {
		await deps.sendDirectMessage(current.userId, message, { nonce: digestNonce(current.userId, due.week) });
	} catch (error) {
		if (!(error instanceof DirectMessagesClosedError)) {
			await claim.release();
			throw error;
		}
		const at = deps.now();
		await deps.digests.update(current.userId, (latest) =>
			latest === null ? undefined : { ...latest, enabled: false, stopped: { reason: 'dmRefused', at } },
		);
		deps.log.info({ job: 'digests' }, 'digest turned off: Discord refused the direct message (50007)');
		return 'turnedOff';
	}
	const sentAt = deps.now();
	await deps.digests.update(current.userId, (latest) =>
		latest === null ? undefined : { ...latest, lastSentWeek: due.week, lastSentAt: sentAt },
	);
	return 'sent';
}

/**
 * One check: every member whose digest is due (spread offset passed) gets it, a few at a time. Returns what
 * happened to each one that was due.
 */
export async function runDigestCheck(
	deps: DigestJobDeps,
	isStopping: () => boolean = () => false,
): Promise<DigestOutcome[]> {
	const due: DigestRecord[] = [];
	for await (const record of deps.digests.listAll()) {
		if (isStopping()) return [];
		if (digestDueNow(record, deps.now())) due.push(record);
	}
	const outcomes: DigestOutcome[] = [];
	await forEachLimited(toAsync(due), CONCURRENCY, async (record) => {
		if (isStopping()) return;
		try {
			outcomes.push(await sendDueDigest(deps, record));
		} catch (error) {
			outcomes.push('failed');
			deps.log.warn({ job: 'digests', error: errorName(error) }, 'digest not sent; the next check tries again');
		}
	});
	return outcomes;
}

/**
 * The weekly digests: one check every DIGEST_CHECK_MS. Every process may run it: each member's week is claimed,
 * then stored as sent.
 */
export function digestJob(deps: DigestJobDeps, everyMs: number = DIGEST_CHECK_MS): PeriodicJob {
	return {
		name: 'digests',
		everyMs,
		log: deps.log,
		turn: async (turn) => {
			await runDigestCheck(deps, () => turn.stopping);
		},
	};
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
	yield* items;
}
