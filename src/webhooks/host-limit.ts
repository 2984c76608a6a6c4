// Outgoing webhook calls never go through Discord's REST budget (a Discord webhook URL is not a bot-token call);
// they have their own limit per receiving host, so a thousand webhooks on one host arrive as a steady stream.
// Turns are handed out one every 110 ms per host, and at the moment of sending the last second is checked again:
// a timer that fired late cannot bunch two turns into one second's eleventh send.

/** Attempts per second to one host from one process (docs/webhooks.md). */
export const HOST_ATTEMPTS_PER_SECOND = 10;
const WINDOW_MS = 1000;
/**
 * The window checked at sending is 10% longer than a second: what the receiver counts is arrivals, which the
 * network and both event loops move by tens of milliseconds, and 11 sends in 1.1 s would need 100 ms of that to
 * land 11 in one of its seconds.
 */
const GUARDED_WINDOW_MS = WINDOW_MS * 1.1;
/** Past this many hosts remembered, the ones idle for a second are forgotten. */
const MAX_HOSTS_KEPT = 10_000;

export interface HostLimit {
	/**
	 * Reserves the host's next turn if it comes within `maxWaitMs`, and resolves when the attempt may go (true);
	 * false at once when the turn comes later (nothing reserved: the attempt is put off).
	 */
	acquire(host: string, maxWaitMs: number): Promise<boolean>;
}

const sleep = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createHostLimit(perSecond = HOST_ATTEMPTS_PER_SECOND, now: () => number = Date.now): HostLimit {
	// 10% above the exact spacing: 11 turns span 1,100 ms, so jitter must bunch them by 100 ms to put 11 in a second.
	const spacingMs = (WINDOW_MS * 1.1) / perSecond;
	const hosts = new Map<string, { nextTurn: number; sent: number[] }>();
	const forgetIdle = (at: number) => {
		for (const [key, host] of hosts)
			if (host.nextTurn <= at && (host.sent.at(-1) ?? 0) <= at - GUARDED_WINDOW_MS) hosts.delete(key);
	};
	return {
		async acquire(name, maxWaitMs) {
			const key = name.toLowerCase();
			const at = now();
			let host = hosts.get(key);
			if (!host) {
				if (hosts.size >= MAX_HOSTS_KEPT) forgetIdle(at);
				host = { nextTurn: 0, sent: [] };
				hosts.set(key, host);
			}
			const turn = Math.max(at, host.nextTurn);
			if (turn - at > maxWaitMs) return false;
			host.nextTurn = turn + spacingMs;
			if (turn > at) await sleep(turn - at);
			// The window as it is when the attempt goes: the last second holds fewer than the limit.
			for (;;) {
				const sentAt = now();
				host.sent = host.sent.filter((time) => time > sentAt - GUARDED_WINDOW_MS);
				if (host.sent.length < perSecond) {
					host.sent.push(sentAt);
					return true;
				}
				await sleep(host.sent[0]! + GUARDED_WINDOW_MS - sentAt + 1);
			}
		},
	};
}
