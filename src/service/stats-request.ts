import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatGeneratedAt, preciseNow } from './utc-time.js';
import { ALLOWED_METHODS, sendError, sendJson } from './http-responses.js';
import { authenticateRequest } from './request-auth.js';
import type { AuthFailureLimiter } from './auth-failure-limiter.js';
import type { RateLimiter } from './rate-limit.js';
import type { StatsStore } from './service-store.js';

export const STATS_PATH = '/api/v1/stats';

export interface StatsRequestDeps {
	store: StatsStore;
	perKey: RateLimiter;
	failures: AuthFailureLimiter;
	unreleased: boolean;
	/** The stats clock with the `generated_at` text of the same instant. */
	clock: () => { date: Date; generatedAt: string };
}

/** The wall clock with microseconds, or a pinned clock (tests) with zero microseconds. */
export function statsClock(pinnedNow?: () => Date): () => { date: Date; generatedAt: string } {
	if (pinnedNow) {
		return () => {
			const date = pinnedNow();
			return { date, generatedAt: formatGeneratedAt(date) };
		};
	}
	return () => {
		const { date, microsWithinMs } = preciseNow();
		return { date, generatedAt: formatGeneratedAt(date, microsWithinMs) };
	};
}

/** Reads the path without query string or fragment; `/api/v1/stats/` counts as `/api/v1/stats`. */
function isStatsPath(url: string | undefined): boolean {
	const path = (url ?? '').split(/[?#]/, 1)[0];
	return path === STATS_PATH || path === `${STATS_PATH}/`;
}

/** Answers one request to the service: the stats body, or the JSON error that says why not. */
export function answerStatsRequest(req: IncomingMessage, res: ServerResponse, deps: StatsRequestDeps): void {
	const isHead = req.method === 'HEAD';
	if (!isStatsPath(req.url)) {
		return sendError(res, isHead, 'not_found', `no resource here; the endpoint is GET ${STATS_PATH}`);
	}
	if (req.method !== 'GET' && !isHead) {
		return sendError(res, isHead, 'method_not_allowed', `${STATS_PATH} answers ${ALLOWED_METHODS}`, {
			Allow: ALLOWED_METHODS,
		});
	}
	if (deps.unreleased) {
		return sendError(res, isHead, 'feature_unavailable', 'account statistics are planned for the V2 update');
	}
	const auth = authenticateRequest(req, deps);
	if (!('account' in auth)) return sendError(res, isHead, auth.code, auth.message, auth.headers);
	const { date, generatedAt } = deps.clock();
	sendJson(res, isHead, 200, deps.store.computeStatsFor(auth.account, date, generatedAt));
}
