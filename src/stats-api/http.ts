import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent, Dispatcher } from 'undici';
import {
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	StatsApiError,
	UpstreamUnreachableError,
} from '../errors.js';
import { undici } from '../lazy-packages.js';
import { readPackageJson } from '../project-files.js';
import type { StatsSnapshot } from './snapshot.js';
import { parseStatsBody } from './validate.js';

/** Bodies past this are refused without reading further. */
export const MAX_STATS_BODY_BYTES = 1024 * 1024;
/** Error bodies are only read for their `error.code`. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;
/** A retry is attempted only while more than this share of the budget is left. */
const RETRY_BUDGET_SHARE = 0.4;
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

const packageJson = readPackageJson();
/** `adstats-discord-bot/<version>`, both read from package.json. */
export const DEFAULT_USER_AGENT = `${packageJson.name}/${packageJson.version}`;

/** One keep-alive pool for the stats endpoint; per-phase timeouts stay under the whole-call budget. */
export function createStatsAgent(timeoutMs: number): Agent {
	return new (undici().Agent)({
		keepAliveTimeout: 30_000,
		connections: 32,
		connect: { timeout: Math.min(3000, timeoutMs) },
		headersTimeout: timeoutMs,
		bodyTimeout: timeoutMs,
	});
}

export interface GetStatsOptions {
	dispatcher: Dispatcher;
	baseUrl: string;
	timeoutMs: number;
	userAgent: string;
	now: () => number;
	onAttempt: () => void;
	/** Each attempt's outcome once it ended (body read included): its HTTP status, or how it failed without one. */
	onAttemptResult?: (result: AttemptResult, seconds: number) => void;
}

/** An HTTP status, `network` (no answer: refused, reset, DNS) or `timeout` (the budget ran out). */
export type AttemptResult = number | 'network' | 'timeout';

/** Outcome of one attempt: a snapshot, or an error plus whether a retry may help. */
type Attempt = { snapshot: StatsSnapshot } | { error: StatsApiError; retryable: boolean };

/**
 * GET {baseUrl}/api/v1/stats within `timeoutMs` overall (headers, body and the one retry).
 * Throws the typed errors of ./errors.ts; none of them carries the key or the body.
 */
export async function getStats(apiKey: string, options: GetStatsOptions): Promise<StatsSnapshot> {
	const started = performance.now();
	const signal = AbortSignal.timeout(options.timeoutMs);
	let attempt = await attemptOnce(apiKey, options, signal);
	if ('error' in attempt && attempt.retryable) {
		const jitterMs = 25 + Math.random() * 75;
		const remaining = options.timeoutMs - (performance.now() - started) - jitterMs;
		if (remaining > options.timeoutMs * RETRY_BUDGET_SHARE) {
			await sleep(jitterMs);
			attempt = await attemptOnce(apiKey, options, signal);
		}
	}
	if ('error' in attempt) throw attempt.error;
	return attempt.snapshot;
}

async function attemptOnce(apiKey: string, options: GetStatsOptions, signal: AbortSignal): Promise<Attempt> {
	options.onAttempt();
	const started = performance.now();
	let status: number | null = null;
	const attempt = await requestOnce(apiKey, options, signal, (received) => (status = received));
	// A status whose body then ran out of time counts as the timeout the member saw.
	const failedLate = 'error' in attempt && signal.aborted;
	const result: AttemptResult = status !== null && !failedLate ? status : signal.aborted ? 'timeout' : 'network';
	options.onAttemptResult?.(result, (performance.now() - started) / 1000);
	return attempt;
}

async function requestOnce(
	apiKey: string,
	options: GetStatsOptions,
	signal: AbortSignal,
	onStatus: (status: number) => void,
): Promise<Attempt> {
	let response: Dispatcher.ResponseData;
	try {
		response = await undici().request(`${options.baseUrl}/api/v1/stats`, {
			method: 'GET',
			dispatcher: options.dispatcher,
			signal,
			headers: {
				authorization: `Bearer ${apiKey}`,
				'content-type': 'application/json',
				accept: 'application/json',
				'user-agent': options.userAgent,
			},
		});
	} catch (error) {
		return { error: connectionError(error, signal), retryable: !signal.aborted };
	}
	const { statusCode, headers, body } = response;
	onStatus(statusCode);
	try {
		if (statusCode >= 200 && statusCode < 300) {
			const text = await readCapped(body, MAX_STATS_BODY_BYTES, signal);
			if (text === null) return { error: new ProtocolError('the body is larger than 1 MiB'), retryable: false };
			return { snapshot: parseStatsBody(text) };
		}
		const errorCode = await readErrorCode(body, signal);
		return {
			error: statusError(statusCode, headers, errorCode, options.now()),
			retryable: isRetryable(statusCode, errorCode),
		};
	} catch (error) {
		if (error instanceof StatsApiError) return { error, retryable: false };
		return { error: connectionError(error, signal), retryable: false };
	} finally {
		// A half-read body would pin the pooled connection; destroying an ended body is a no-op.
		body.destroy();
	}
}

function isRetryable(statusCode: number, errorCode: string | null): boolean {
	return RETRYABLE_STATUSES.has(statusCode) && errorCode !== 'feature_unavailable';
}

function statusError(
	statusCode: number,
	headers: Dispatcher.ResponseData['headers'],
	errorCode: string | null,
	now: number,
): StatsApiError {
	if (statusCode === 401 || statusCode === 403) return new KeyRejectedError(statusCode);
	if (statusCode === 404 || statusCode === 501) return new FeatureUnavailableError(statusCode);
	if (statusCode === 503 && errorCode === 'feature_unavailable') return new FeatureUnavailableError(statusCode);
	if (statusCode === 429) return new RateLimitedError(parseRetryAfter(headers['retry-after'], now));
	if (statusCode >= 500) return new UpstreamUnreachableError(`HTTP ${statusCode}`);
	return new ProtocolError(`unexpected HTTP ${statusCode}`);
}

/** Seconds to wait from a Retry-After of delta-seconds or an HTTP-date; null when absent or unusable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined) return null;
	const trimmed = raw.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return null;
	return Math.max(0, Math.ceil((date - now) / 1000));
}

/** undici's own timers, set to the same budget as the abort signal: whichever fires first, the budget ran out. */
const BUDGET_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function connectionError(error: unknown, signal: AbortSignal): UpstreamUnreachableError {
	const code = (error as { code?: unknown } | null)?.code;
	if (signal.aborted || (typeof code === 'string' && BUDGET_TIMEOUT_CODES.has(code))) {
		return new UpstreamUnreachableError('timed out', { cause: error });
	}
	const reason = typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'connection failed';
	return new UpstreamUnreachableError(reason, { cause: error });
}

/** The body as text, or null once it passes `limit` bytes (reading stops there). */
async function readCapped(body: AsyncIterable<Buffer>, limit: number, signal: AbortSignal): Promise<string | null> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += chunk.length;
		if (size > limit) return null;
		chunks.push(chunk);
	}
	signal.throwIfAborted();
	return Buffer.concat(chunks).toString('utf8');
}

async function readErrorCode(body: AsyncIterable<Buffer>, signal: AbortSignal): Promise<string | null> {
	const text = await readCapped(body, MAX_ERROR_BODY_BYTES, signal);
	if (text === null) return null;
	try {
		const code = (JSON.parse(text) as { error?: { code?: unknown } } | null)?.error?.code;
		return typeof code === 'string' ? code : null;
	} catch {
		return null;
	}
}
