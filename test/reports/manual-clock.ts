// A clock for code that also waits on real I/O (a real store): time moves only while every loop using the
// clock sleeps on one of its timers, so no scan is ever overtaken by the clock.

interface Timer {
	at: number;
	seq: number;
	fn: () => void;
}

export class ManualClock {
	#time: number;
	#timers: Timer[] = [];
	#seq = 0;

	constructor(
		start: number,
		/** How many loops share the clock: time moves when that many timers are pending. */
		private readonly loops = 1,
	) {
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

	/** Fires timers in order up to `end`, each once every loop sleeps; gives up after `realTimeoutMs`. */
	async runUntil(end: number, realTimeoutMs = 120_000): Promise<void> {
		const deadline = Date.now() + realTimeoutMs;
		for (;;) {
			while (this.#timers.length < this.loops) {
				if (Date.now() > deadline) throw new Error(`clock stuck at ${new Date(this.#time).toISOString()}`);
				await new Promise((resolve) => setTimeout(resolve, 1));
			}
			const next = this.#timers.reduce((a, b) => (b.at < a.at || (b.at === a.at && b.seq < a.seq) ? b : a));
			if (next.at > end) break;
			this.#timers = this.#timers.filter((timer) => timer !== next);
			this.#time = Math.max(this.#time, next.at);
			next.fn();
		}
		this.#time = Math.max(this.#time, end);
	}
}
