/** A 429 as the REST server sends it (its RestReply shape). */
interface LimitReply {
	status: number;
	body: unknown;
	headers: Record<string, string>;
}

/** Discord's global limit: requests per second with the bot token, all processes together. */
export const DISCORD_GLOBAL_PER_SECOND = 50;
/** Seconds of per-second counts kept for tests to read (an hour). */
const SECONDS_KEPT = 3600;

/**
 * Discord's global rate limit as the stand-in enforces it: past `perSecond` bot-token requests in one
 * wall-clock second (interaction callbacks and webhooks excepted, as on Discord), a 429 with `global: true`,
 * `retry_after` to the end of the second and `X-RateLimit-Global: true`. Counted on the real clock whatever
 * clock a test gives the stand-in: the limit is about how fast requests arrive.
 */
export class GlobalLimit {
	/** Requests the limit refused so far (Discord bans an address after 10,000 in 10 minutes). */
	refused = 0;
	/** Epoch second → bot-token requests that arrived in it (refused ones included). */
	readonly perSecond = new Map<number, number>();

	constructor(
		/** Null: no limit (counting goes on). */
		public limit: number | null = DISCORD_GLOBAL_PER_SECOND,
		private readonly now: () => number = Date.now,
	) {}

	/** Counts one request; the 429 to answer it with when it is past the limit, else null. */
	take(): LimitReply | null {
		const at = this.now();
		const second = Math.floor(at / 1000);
		const count = (this.perSecond.get(second) ?? 0) + 1;
		this.perSecond.set(second, count);
		if (this.perSecond.size > SECONDS_KEPT) this.perSecond.delete(this.perSecond.keys().next().value ?? second);
		if (this.limit === null || count <= this.limit) return null;
		this.refused += 1;
		const retryAfter = Math.max(0.001, ((second + 1) * 1000 - at) / 1000);
		return {
			status: 429,
			headers: { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global', 'retry-after': retryAfter.toFixed(3) },
			body: { message: 'You are being rate limited.', retry_after: retryAfter, global: true },
		};
	}

	/** The busiest second's count so far (0 before any request). */
	get peakPerSecond(): number {
		let peak = 0;
		for (const count of this.perSecond.values()) peak = Math.max(peak, count);
		return peak;
	}
}

/** Interaction callbacks and the interaction token's webhook routes, which Discord's global limit leaves out. */
export function isGlobalLimitExempt(path: string): boolean {
	return path.startsWith('/interactions/') || path.startsWith('/webhooks/');
}
