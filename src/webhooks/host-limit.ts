// Outgoing webhook calls never go through Discord's REST budget (a Discord webhook URL is not a bot-token call);
// they have their own limit per receiving host, so a thousand webhooks on one host arrive as a steady stream.
import { RateLimiterMemory } from 'rate-limiter-flexible';

/** Attempts per second to one host from one process (docs/webhooks.md). */
export const HOST_ATTEMPTS_PER_SECOND = 10;

export interface HostLimit {
	/** 0 when an attempt to `host` may go now (and counts it), else the ms to wait. */
	take(host: string): Promise<number>;
}

export function createHostLimit(perSecond = HOST_ATTEMPTS_PER_SECOND): HostLimit {
	const limiter = new RateLimiterMemory({ points: perSecond, duration: 1 });
	return {
		take: async (host) => {
			try {
				await limiter.consume(host.toLowerCase());
				return 0;
			} catch (refusal) {
				if (refusal instanceof Error) throw refusal;
				return Math.max(1, (refusal as { msBeforeNext: number }).msBeforeNext);
			}
		},
	};
}
