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

/** claimOnce over a Map, expiring by the fake clock: what Redis SET NX PX does. */
export function memoryClaims(now: () => number) {
	const claims = new Map<string, number>();
	return {
		claims,
		claimOnce: async (key: string, ttlMs: number): Promise<boolean> => {
			const expires = claims.get(key);
			if (expires !== undefined && expires > now()) return false;
			claims.set(key, now() + ttlMs);
			return true;
		},
	};
}
