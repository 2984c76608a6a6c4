/** Answer of the limiter: allowed, or refused with the whole seconds to wait before the next request fits. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

// Buckets that are full again carry no information; dropping them bounds memory by active keys.
const PRUNE_AT_SIZE = 10_000;

/**
 * Per-key token bucket: a burst of `perMinute` requests, then one every 60/perMinute seconds.
 * `perMinute` 0 turns limiting off. Time comes from a monotonic clock, never from the stats clock.
 */
export class RateLimiter {
	private readonly buckets = new Map<number | string, { tokens: number; atMs: number }>();
	private readonly refillPerMs: number;

	constructor(
		private readonly perMinute: number,
		private readonly monotonicMs: () => number = () => performance.now(),
	) {
		if (!Number.isInteger(perMinute) || perMinute < 0) throw new RangeError('perMinute must be an integer >= 0');
		this.refillPerMs = perMinute / 60_000;
	}

	take(key: number | string): RateDecision {
		if (this.perMinute === 0) return { allowed: true };
		const nowMs = this.monotonicMs();
		const bucket = this.buckets.get(key);
		const tokens = bucket
			? Math.min(this.perMinute, bucket.tokens + (nowMs - bucket.atMs) * this.refillPerMs)
			: this.perMinute;
		if (tokens >= 1) {
			if (!bucket && this.buckets.size >= PRUNE_AT_SIZE) this.prune(nowMs);
			this.buckets.set(key, { tokens: tokens - 1, atMs: nowMs });
			return { allowed: true };
		}
		this.buckets.set(key, { tokens, atMs: nowMs });
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000)) };
	}

	private prune(nowMs: number): void {
		for (const [key, bucket] of this.buckets) {
			if (bucket.tokens + (nowMs - bucket.atMs) * this.refillPerMs >= this.perMinute) this.buckets.delete(key);
		}
	}
}
