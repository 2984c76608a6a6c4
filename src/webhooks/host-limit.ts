// Outgoing webhook calls never go through Discord's REST budget (a Discord webhook URL is not a bot-token call);
// they have their own limit per receiving host, so a thousand webhooks on one host arrive as a steady stream.
// Attempts to one host are spaced evenly (10 a second: one every 100 ms), which holds in any one-second window,
// where a counter per fixed second lets 20 through across its edge.

/** Attempts per second to one host from one process (docs/webhooks.md). */
export const HOST_ATTEMPTS_PER_SECOND = 10;
/** Past this many hosts remembered, the ones whose turn has passed are forgotten. */
const MAX_HOSTS_KEPT = 10_000;

export interface HostLimit {
	/**
	 * Reserves the host's next turn if it comes within `maxWaitMs`: the ms to wait before sending. Null when it comes
	 * later (nothing reserved: the attempt is put off).
	 */
	reserve(host: string, maxWaitMs: number): number | null;
}

export function createHostLimit(perSecond = HOST_ATTEMPTS_PER_SECOND, now: () => number = Date.now): HostLimit {
	const spacingMs = 1000 / perSecond;
	const nextTurn = new Map<string, number>();
	return {
		reserve(host, maxWaitMs) {
			const at = now();
			const key = host.toLowerCase();
			const turn = Math.max(at, nextTurn.get(key) ?? 0);
			if (turn - at > maxWaitMs) return null;
			if (nextTurn.size >= MAX_HOSTS_KEPT) for (const [kept, next] of nextTurn) if (next <= at) nextTurn.delete(kept);
			nextTurn.set(key, turn + spacingMs);
			return turn - at;
		},
	};
}
