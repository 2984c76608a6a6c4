/** Whether a client may be told "unauthorized" once more, or must wait until its minute ends. */
export type AuthFailureDecision = { blocked: false } | { blocked: true; retryAfterSeconds: number };

const WINDOW_MS = 60_000;
/** Addresses remembered at once; past this the oldest window is forgotten, so a botnet cannot exhaust memory. */
export const DEFAULT_MAX_TRACKED_ADDRESSES = 50_000;

/**
 * Counts failed authentications per client address in fixed one-minute windows, each opened by the address's
 * first failure. Only failures count: a bot host sends many members' keys from one address, and valid keys
 * must keep passing whatever its neighbours get wrong. `limit` 0 turns counting off.
 */
export class AuthFailureLimiter {
	// Insertion order is window-start order (an expired window is deleted before a new one is set),
	// so expired entries always sit at the front and pruning stops at the first live one.
	private readonly windows = new Map<string, { startMs: number; failures: number }>();

	constructor(
		private readonly limit: number,
		private readonly options: { monotonicMs?: () => number; maxAddresses?: number } = {},
	) {
		if (!Number.isInteger(limit) || limit < 0) throw new RangeError('limit must be an integer >= 0');
	}

	/** Addresses currently remembered (for tests of the memory bound). */
	get size(): number {
		return this.windows.size;
	}

	/** Records one failed authentication from `address`; blocked once the address already failed `limit` times this minute. */
	fail(address: string | null): AuthFailureDecision {
		if (this.limit === 0 || address === null) return { blocked: false };
		const nowMs = (this.options.monotonicMs ?? performance.now.bind(performance))();
		this.prune(nowMs);
		let window = this.windows.get(address);
		if (window && nowMs - window.startMs >= WINDOW_MS) {
			this.windows.delete(address);
			window = undefined;
		}
		if (!window) {
			const max = this.options.maxAddresses ?? DEFAULT_MAX_TRACKED_ADDRESSES;
			while (this.windows.size >= max) {
				const oldest = this.windows.keys().next().value;
				if (oldest === undefined) break;
				this.windows.delete(oldest);
			}
			this.windows.set(address, { startMs: nowMs, failures: 1 });
			return { blocked: false };
		}
		if (window.failures >= this.limit) {
			return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((window.startMs + WINDOW_MS - nowMs) / 1000)) };
		}
		window.failures += 1;
		return { blocked: false };
	}

	private prune(nowMs: number): void {
		for (const [address, window] of this.windows) {
			if (nowMs - window.startMs < WINDOW_MS) return;
			this.windows.delete(address);
		}
	}
}
