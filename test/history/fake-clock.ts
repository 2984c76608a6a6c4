// A clock and timers the test moves by hand: a simulated day passes in well under a second.

interface Timer {
	at: number;
	seq: number;
	fn: () => void;
}

/** Lets every pending promise chain run up to its next timer. */
export async function settle(): Promise<void> {
	for (let round = 0; round < 3; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock {
	#time: number;
	#timers: Timer[] = [];
	#seq = 0;

	constructor(start: number) {
		this.#time = start;
	}

	readonly now = (): number => this.#time;

	readonly setTimer = (fn: () => void, ms: number): (() => void) => {
		const timer = { at: this.#time + Math.max(0, ms), seq: (this.#seq += 1), fn };
		this.#timers.push(timer);
		return () => {
			this.#timers = this.#timers.filter((other) => other !== timer);
		};
	};

	get pendingTimers(): number {
		return this.#timers.length;
	}

	/** Fires every timer due up to `target`, in order, letting the code they wake run in between. */
	async advanceTo(target: number): Promise<void> {
		for (;;) {
			await settle();
			let next: Timer | undefined;
			for (const timer of this.#timers) {
				if (timer.at <= target && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq)))
					next = timer;
			}
			if (!next) break;
			this.#timers = this.#timers.filter((timer) => timer !== next);
			this.#time = Math.max(this.#time, next.at);
			next.fn();
		}
		this.#time = Math.max(this.#time, target);
		await settle();
	}
}

/** The coordinator's claim over a Map, expiring by the fake clock: what Redis SET NX PX does. */
export function memoryClaims(now: () => number) {
	const claims = new Map<string, { expires: number; token: number }>();
	let tokens = 0;
	const claim = async (key: string, ttlMs: number): Promise<{ release(): Promise<void> } | null> => {
		const held = claims.get(key);
		if (held !== undefined && held.expires > now()) return null;
		const token = (tokens += 1);
		claims.set(key, { expires: now() + ttlMs, token });
		return {
			release: async () => {
				if (claims.get(key)?.token === token) claims.delete(key);
			},
		};
	};
	return { claims, claim, claimOnce: async (key: string, ttlMs: number) => (await claim(key, ttlMs)) !== null };
}

/**
 * A lone process's claims, for heap measurements: the passes' in a map (48 a day), the accounts' always free
 * (no other process takes them, and a map of every account would weigh on the heap measured).
 */
export function loneProcessClaims(now: () => number) {
	const passes = memoryClaims(now);
	const free = { release: async () => undefined };
	return async (key: string, ttlMs: number): Promise<{ release(): Promise<void> } | null> =>
		key.startsWith('history-sample') ? free : passes.claim(key, ttlMs);
}
