/** Base of every expected failure of the stats endpoint. Messages never contain a key or a body. */
export class StatsApiError extends Error {
	override name = 'StatsApiError';
}

/** 401/403: the endpoint refused the key. */
export class KeyRejectedError extends StatsApiError {
	override name = 'KeyRejectedError';
	constructor(readonly status: number) {
		super(`the stats endpoint rejected the key (HTTP ${status})`);
	}
}

/** 404, 501, or 503 with code feature_unavailable: the endpoint is not released yet. */
export class FeatureUnavailableError extends StatsApiError {
	override name = 'FeatureUnavailableError';
	constructor(readonly status: number) {
		super(`the stats endpoint is not available (HTTP ${status})`);
	}
}

/** 429: try again after `retryAfterSeconds` (null when the endpoint gave no usable Retry-After). */
export class RateLimitedError extends StatsApiError {
	override name = 'RateLimitedError';
	constructor(readonly retryAfterSeconds: number | null) {
		super(`the stats endpoint is rate limiting (retry after ${retryAfterSeconds ?? '?'} s)`);
	}
}

/** 5xx, connection errors and timeouts. */
export class UpstreamUnreachableError extends StatsApiError {
	override name = 'UpstreamUnreachableError';
	constructor(
		readonly reason: string,
		options?: { cause?: unknown },
	) {
		super(`the stats endpoint is unreachable: ${reason}`, options);
	}
}

/** A body that is not the documented shape: not JSON, wrong types, negative counts, too large. */
export class ProtocolError extends StatsApiError {
	override name = 'ProtocolError';
	constructor(readonly reason: string) {
		super(`the stats endpoint answered something unexpected: ${reason}`);
	}
}
