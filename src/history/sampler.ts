import { createHmac, hkdfSync } from 'node:crypto';
import { KeyRejectedError, RateLimitedError } from '../errors.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { errorName, type JobLog, type PeriodicJob, type Turn } from '../core/periodic-runner.js';
import { DAY_MS, startOfDate, utcDateOf } from './utc-days.js';

const HOUR_MS = 3_600_000;
const HOURS_PER_DAY = 24;
/** Waited after a 429 that gave no usable Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Upstream attempts per account and day; only 429s are retried. */
const MAX_ATTEMPTS = 3;
const HKDF_LABEL = 'history-sampler v1';
/**
 * How long an account's lease holds while its call is made: its paced attempts and usual 429 waits fit in it.
 * A process that dies holding it frees the account when it expires. A live holder still waiting past it (a
 * Retry-After of many minutes) may see another process sample the account too: a second call, never a lost day.
 */
export const SAMPLE_LEASE_MS = 10 * 60_000;
/**
 * How long a pass's lease holds: longer than a pass takes. A process that dies mid-pass leaves the pass to
 * the first hourly round of another process after it expires; a pass that outlasts it may be run beside
 * its holder, which the accounts' own claims keep to one sample each.
 */
export const PASS_LEASE_MS = 2 * HOUR_MS;

interface Lease {
	release(): Promise<void>;
}

/** One link the sampler may read: its store key (for logs) and its decrypted API key (never logged). */
export interface SamplerAccount {
	linkKey: string;
	apiKey: string;
}

export interface HistorySamplerOptions {
	/** Every member and server link, read lazily: the sampler holds one at a time. Called once per pass. */
	listAccounts: () => AsyncIterable<SamplerAccount>;
	/** One stats call (the stats client's fetchSnapshot). */
	fetchSnapshot: (apiKey: string) => Promise<{ snapshot: StatsSnapshot; fetchedAt: number; isStale?: boolean }>;
	/** Folds the snapshot into the history (the history store's record). */
	record: (snapshot: StatsSnapshot, receivedAt: number) => Promise<unknown>;
	/**
	 * Takes `key` for `ttlMs` unless another holder has it unexpired, across every process sharing the store
	 * (the coordinator's claim); null when taken. Release frees it early.
	 */
	claim: (key: string, ttlMs: number) => Promise<Lease | null>;
	/** LINK_SECRET: claim keys carry an HMAC of the API key under a key derived from it, never the key. */
	secret: Buffer;
	/** HISTORY_SAMPLE_PER_MINUTE: upstream calls a minute at most. */
	perMinute: number;
	/** Epoch ms. */
	now: () => number;
	log: JobLog;
}

/** Store keys of the sampler's claims, spelled once. */
export const samplePassClaimKey = (date: string, hour: number): string => `history-pass:${date}:${hour}`;
export const sampleClaimKey = (date: string, accountKey: string): string => `history-sample:${date}:${accountKey}`;
export const sampleLeaseKey = (date: string, accountKey: string): string =>
	`history-sample-lease:${date}:${accountKey}`;
export const samplePassLeaseKey = (date: string, hour: number): string => `history-pass-lease:${date}:${hour}`;

/**
 * The UTC hour of the day in which an account is sampled, from its key's hash (an HMAC, so the same in every
 * process and after every restart): the day's calls spread over 24 hourly passes, which pace them further.
 */
export const sampleHourOf = (accountKey: string): number => Number.parseInt(accountKey.slice(0, 8), 16) % HOURS_PER_DAY;

/**
 * Takes one snapshot of every linked account each UTC day. Each account has an hour of the day, picked from
 * its key, so samples land about 24 h apart and the day's calls are spread over 24 hourly passes. Every hour
 * a round runs the day's passes that are due and neither done nor held: on start, the hours already past;
 * then the hour just begun (and any a long round missed); and the pass of a process that died mid-pass, once
 * its lease (PASS_LEASE_MS) expired. Each account's sample is claimed per day too, which also makes links
 * sharing a key one account: held by a lease of SAMPLE_LEASE_MS while its call is made, and claimed for the
 * rest of the day once the sample is taken (or refused). A process that dies before its call costs the
 * account no day: another process samples it in a later round of the same day (only what is left in the
 * day's last two hours goes to the next day's sample).
 */
export function samplerJob(options: HistorySamplerOptions): PeriodicJob {
	const { now, log } = options;
	const hmacKey = Buffer.from(hkdfSync('sha256', options.secret, Buffer.alloc(0), HKDF_LABEL, 32));
	const accountKeyOf = (apiKey: string) =>
		createHmac('sha256', hmacKey).update(apiKey, 'utf8').digest('hex').slice(0, 32);
	if (!(options.perMinute > 0)) throw new RangeError('perMinute must be above 0');
	const intervalMs = 60_000 / options.perMinute;

	let nextCallAt = 0;

	// Claims end an hour after their day, so a late pass of 23:00 still finds them.
	const claimTtl = (date: string) => Math.max(HOUR_MS, startOfDate(date) + DAY_MS + HOUR_MS - now());

	const pace = async (turn: Turn) => {
		const wait = nextCallAt - now();
		if (wait > 0) await turn.sleep(wait);
		nextCallAt = Math.max(now(), nextCallAt) + intervalMs;
	};

	/** `stopped`: the sampler was stopped before the call; the account is left to another process. */
	type Outcome = 'sampled' | 'rejected' | 'failed' | 'stopped';

	const sampleAccount = async (turn: Turn, account: SamplerAccount): Promise<Outcome> => {
		for (let attempt = 1; attempt <= MAX_ATTEMPTS && !turn.stopping; attempt += 1) {
			await pace(turn);
			if (turn.stopping) return 'stopped';
			try {
				const result = await options.fetchSnapshot(account.apiKey);
				if (result.isStale) {
					log.warn({ linkKey: account.linkKey }, 'history sample skipped: the stats endpoint is unreachable');
					return 'failed';
				}
				await options.record(result.snapshot, result.fetchedAt);
				return 'sampled';
			} catch (error) {
				if (error instanceof RateLimitedError) {
					const waitMs = error.retryAfterSeconds === null ? DEFAULT_RETRY_AFTER_MS : error.retryAfterSeconds * 1000;
					nextCallAt = Math.max(nextCallAt, now() + waitMs);
					continue;
				}
				if (error instanceof KeyRejectedError) {
					log.info({ linkKey: account.linkKey }, 'history sample skipped: the key is rejected');
					return 'rejected';
				}
				log.warn({ linkKey: account.linkKey, error: errorName(error) }, 'history sample failed');
				return 'failed';
			}
		}
		if (turn.stopping) return 'stopped';
		log.warn({ linkKey: account.linkKey }, 'history sample failed: still rate limited');
		return 'failed';
	};

	/**
	 * One account's sample of `date`, once across processes; null when another process holds or took it. The
	 * lease is taken first and released last, so at every moment the lease or the day's claim is held: no
	 * other process can slip in between the check and the mark.
	 */
	const sampleOnce = async (
		turn: Turn,
		date: string,
		accountKey: string,
		account: SamplerAccount,
	): Promise<Outcome | null> => {
		const lease = await options.claim(sampleLeaseKey(date, accountKey), SAMPLE_LEASE_MS);
		if (lease === null) return null;
		try {
			const dayClaim = sampleClaimKey(date, accountKey);
			const open = await options.claim(dayClaim, SAMPLE_LEASE_MS);
			if (open === null) return null;
			// Not sampled today: under the lease, the day's claim is taken only once the sample is.
			await open.release();
			const outcome = await sampleAccount(turn, account);
			if (outcome !== 'stopped') await options.claim(dayClaim, claimTtl(date));
			return outcome;
		} finally {
			await lease.release();
		}
	};

	const runPass = async (turn: Turn, date: string, hours: ReadonlySet<number>) => {
		const counts = { sampled: 0, rejected: 0, failed: 0, stopped: 0 };
		for await (const account of options.listAccounts()) {
			if (turn.stopping) break;
			const accountKey = accountKeyOf(account.apiKey);
			if (!hours.has(sampleHourOf(accountKey))) continue;
			const outcome = await sampleOnce(turn, date, accountKey, account);
			if (outcome !== null) counts[outcome] += 1;
		}
		log.info({ date, hours: [...hours], ...counts }, 'history sampling pass done');
	};

	/**
	 * The passes of `date` up to `current` that no process ran to the end and none runs now, each held by its
	 * lease: the hours just begun, the hours past at start, and those of a process that died mid-pass.
	 */
	const claimPasses = async (date: string, current: number): Promise<Map<number, Lease>> => {
		const won = new Map<number, Lease>();
		try {
			for (let hour = 0; hour <= current; hour += 1) {
				const lease = await options.claim(samplePassLeaseKey(date, hour), PASS_LEASE_MS);
				if (lease === null) continue;
				const open = await options.claim(samplePassClaimKey(date, hour), PASS_LEASE_MS);
				if (open === null) {
					await lease.release();
					continue;
				}
				await open.release();
				won.set(hour, lease);
			}
		} catch (error) {
			await releaseAll(won);
			throw error;
		}
		return won;
	};

	const releaseAll = async (leases: Map<number, Lease>) => {
		for (const lease of leases.values()) await lease.release().catch(() => undefined);
	};

	// A store or listing failure ends that round only (the runner logs it): its passes are left to the next round.
	const runRound = async (turn: Turn) => {
		const time = now();
		const date = utcDateOf(time);
		const current = Math.floor((time - startOfDate(date)) / HOUR_MS);
		const won = await claimPasses(date, current);
		if (won.size === 0) return;
		try {
			await runPass(turn, date, new Set(won.keys()));
			if (turn.stopping) return;
			for (const hour of won.keys()) await options.claim(samplePassClaimKey(date, hour), claimTtl(date));
		} finally {
			await releaseAll(won);
		}
	};

	return { name: 'history sampling pass', everyMs: HOUR_MS, turn: runRound, log };
}
