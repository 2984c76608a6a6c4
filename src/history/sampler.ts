import { createHmac, hkdfSync } from 'node:crypto';
import { KeyRejectedError, RateLimitedError } from '../errors.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { DAY_MS, startOfDate, utcDateOf } from './utc-days.js';

const HOUR_MS = 3_600_000;
const HOURS_PER_DAY = 24;
/** Waited after a 429 that gave no usable Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Upstream attempts per account and day; only 429s are retried. */
const MAX_ATTEMPTS = 3;
const HKDF_LABEL = 'history-sampler v1';

/** One link the sampler may read: its store key (for logs) and its decrypted API key (never logged). */
export interface SamplerAccount {
	linkKey: string;
	apiKey: string;
}

export interface SamplerLog {
	info(fields: object, message: string): void;
	warn(fields: object, message: string): void;
}

export interface HistorySamplerOptions {
	/** Every member and server link, read lazily: the sampler holds one at a time. Called once per pass. */
	listAccounts: () => AsyncIterable<SamplerAccount>;
	/** One stats call (the stats client's fetchSnapshot). */
	fetchSnapshot: (apiKey: string) => Promise<{ snapshot: StatsSnapshot; fetchedAt: number; isStale?: boolean }>;
	/** Folds the snapshot into the history (the history store's record). */
	record: (snapshot: StatsSnapshot, receivedAt: number) => Promise<unknown>;
	/** True for the one caller, across every process sharing the store, that first claims `key` within `ttlMs`. */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	/** LINK_SECRET: claim keys carry an HMAC of the API key under a key derived from it, never the key. */
	secret: Buffer;
	/** HISTORY_SAMPLE_PER_MINUTE: upstream calls a minute at most. */
	perMinute: number;
	/** Epoch ms. */
	now: () => number;
	/** Calls `fn` after `ms`; returns a function that cancels it. */
	setTimer: (fn: () => void, ms: number) => () => void;
	log: SamplerLog;
}

export interface HistorySampler {
	start(): void;
	/** Stops after the call in flight, if any; resolves once the sampler is idle. */
	stop(): Promise<void>;
}

/** Store keys of the sampler's claims, spelled once. */
export const samplePassClaimKey = (date: string, hour: number): string => `history-pass:${date}:${hour}`;
export const sampleClaimKey = (date: string, accountKey: string): string => `history-sample:${date}:${accountKey}`;

/**
 * Takes one snapshot of every linked account each UTC day. Each account has an hour of the day, picked from
 * its key, so samples land about 24 h apart and the day's calls are spread over 24 hourly passes. A pass is
 * claimed by one process; each account's sample is claimed per day too, which also makes links sharing a key
 * one account. On start, the hours already past today are caught up (claimed account by account, since the
 * process that ran them may have died midway). A pass that overruns its hour is followed by the hours it
 * missed. A claim taken by a process that dies before its call costs that account one day.
 */
export function createHistorySampler(options: HistorySamplerOptions): HistorySampler {
	const { now, log } = options;
	const hmacKey = Buffer.from(hkdfSync('sha256', options.secret, Buffer.alloc(0), HKDF_LABEL, 32));
	const accountKeyOf = (apiKey: string) =>
		createHmac('sha256', hmacKey).update(apiKey, 'utf8').digest('hex').slice(0, 32);
	const hourOf = (accountKey: string) => Number.parseInt(accountKey.slice(0, 8), 16) % HOURS_PER_DAY;
	if (!(options.perMinute > 0)) throw new RangeError('perMinute must be above 0');
	const intervalMs = 60_000 / options.perMinute;

	let running = false;
	let loop: Promise<void> | null = null;
	let wake: (() => void) | null = null;
	let nextCallAt = 0;

	const sleep = async (ms: number) =>
		new Promise<void>((resolve) => {
			const cancel = options.setTimer(() => {
				wake = null;
				resolve();
			}, ms);
			wake = () => {
				cancel();
				wake = null;
				resolve();
			};
		});

	// Claims end an hour after their day, so a late pass of 23:00 still finds them.
	const claimTtl = (date: string) => Math.max(HOUR_MS, startOfDate(date) + DAY_MS + HOUR_MS - now());

	const pace = async () => {
		const wait = nextCallAt - now();
		if (wait > 0) await sleep(wait);
		nextCallAt = Math.max(now(), nextCallAt) + intervalMs;
	};

	type Outcome = 'sampled' | 'rejected' | 'failed';

	const sampleAccount = async (account: SamplerAccount): Promise<Outcome> => {
		for (let attempt = 1; attempt <= MAX_ATTEMPTS && running; attempt += 1) {
			await pace();
			if (!running) break;
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
		if (running) log.warn({ linkKey: account.linkKey }, 'history sample failed: still rate limited');
		return 'failed';
	};

	const runPass = async (date: string, hours: ReadonlySet<number>) => {
		const counts = { sampled: 0, rejected: 0, failed: 0 };
		for await (const account of options.listAccounts()) {
			if (!running) break;
			const accountKey = accountKeyOf(account.apiKey);
			if (!hours.has(hourOf(accountKey))) continue;
			if (!(await options.claimOnce(sampleClaimKey(date, accountKey), claimTtl(date)))) continue;
			counts[await sampleAccount(account)] += 1;
		}
		log.info({ date, hours: [...hours], ...counts }, 'history sampling pass done');
	};

	// A store or listing failure ends that pass only; the next hour's pass tries again.
	const runPassLogged = async (date: string, hours: ReadonlySet<number>) =>
		runPass(date, hours).catch((error: unknown) => {
			log.warn({ date, error: errorName(error) }, 'history sampling pass failed');
		});

	const run = async () => {
		let date = utcDateOf(now());
		let hour = Math.floor((now() - startOfDate(date)) / HOUR_MS);
		await runPassLogged(date, new Set(hoursUpTo(0, hour)));
		while (running) {
			const time = now();
			const today = utcDateOf(time);
			const current = Math.floor((time - startOfDate(today)) / HOUR_MS);
			const pending = hoursUpTo(today === date ? hour + 1 : 0, current);
			if (pending.length === 0) {
				await sleep(startOfDate(today) + (current + 1) * HOUR_MS - time);
				continue;
			}
			const won = new Set<number>();
			try {
				for (const pendingHour of pending) {
					if (await options.claimOnce(samplePassClaimKey(today, pendingHour), claimTtl(today))) won.add(pendingHour);
				}
			} catch (error) {
				log.warn({ date: today, error: errorName(error) }, 'history sampling pass failed');
			}
			if (won.size > 0) await runPassLogged(today, won);
			date = today;
			hour = current;
		}
	};

	return {
		start: () => {
			if (running) return;
			running = true;
			loop = run().catch((error: unknown) => {
				running = false;
				log.warn({ error: errorName(error) }, 'history sampler stopped by an error');
			});
		},
		stop: async () => {
			running = false;
			wake?.();
			await loop;
			loop = null;
		},
	};
}

function hoursUpTo(first: number, last: number): number[] {
	const hours: number[] = [];
	for (let hour = first; hour <= last; hour += 1) hours.push(hour);
	return hours;
}

function errorName(error: unknown): string {
	return error instanceof Error ? error.name : typeof error;
}
