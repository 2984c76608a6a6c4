import { wakeableSleep } from '../wakeable-sleep.js';

/** What the watchers log: never a key, a name typed by a member or a snapshot. */
export interface WatchLog {
	info(fields: object, message: string): void;
	warn(fields: object, message: string): void;
}

export interface PeriodicLoopOptions {
	/** Rounds start at whole multiples of this (epoch ms), so every process agrees on which round it is. */
	everyMs: number;
	/** One round; its errors are logged and the next round comes anyway. */
	run: (round: number) => Promise<void>;
	now: () => number;
	setTimer: (fn: () => void, ms: number) => () => void;
	log: WatchLog;
	name: string;
}

export interface PeriodicLoop {
	start(): void;
	/** Stops after the round in flight, if any; resolves once idle. */
	stop(): Promise<void>;
}

/** Runs `run` at once and then at every multiple of `everyMs`; a round that overruns skips the rounds it missed. */
export function createPeriodicLoop(options: PeriodicLoopOptions): PeriodicLoop {
	const { everyMs, now } = options;
	let running = false;
	let loop: Promise<void> | null = null;

	const { sleep, wake } = wakeableSleep(options.setTimer);

	const run = async () => {
		while (running) {
			const round = Math.floor(now() / everyMs);
			try {
				await options.run(round);
			} catch (error) {
				options.log.warn({ error: error instanceof Error ? error.name : typeof error }, `${options.name} failed`);
			}
			if (!running) break;
			await sleep((Math.floor(now() / everyMs) + 1) * everyMs - now());
		}
	};

	return {
		start: () => {
			if (running) return;
			running = true;
			loop = run();
		},
		stop: async () => {
			running = false;
			wake();
			await loop;
			loop = null;
		},
	};
}

/** Calls `fn` for every item, at most `limit` at a time, so one slow item holds back only its own slot. */
export async function forEachLimited<T>(
	items: AsyncIterable<T>,
	limit: number,
	fn: (item: T) => Promise<void>,
): Promise<void> {
	const inFlight = new Set<Promise<void>>();
	for await (const item of items) {
		const task: Promise<void> = fn(item)
			.catch(() => undefined)
			.finally(() => inFlight.delete(task));
		inFlight.add(task);
		if (inFlight.size >= limit) await Promise.race(inFlight);
	}
	await Promise.all(inFlight);
}
