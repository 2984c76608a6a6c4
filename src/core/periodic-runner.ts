/** What a background job logs: never a key, a name typed by a member or a snapshot. */
export interface JobLog {
	info(fields: object, message: string): void;
	warn(fields: object, message: string): void;
}

/** Calls `fn` after `ms`; returns a function that cancels it. Tests pass a clock of their own. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export interface Clock {
	/** Epoch ms. */
	now: () => number;
	setTimer: SetTimer;
}

export const realClock: Clock = {
	now: Date.now,
	setTimer: (fn, ms) => {
		const timer = setTimeout(fn, ms);
		return () => clearTimeout(timer);
	},
};

/** One turn as the job sees it. */
export interface Turn {
	/** `floor(start / everyMs)`: every process has the same number for the same round, so claims can carry it. */
	readonly round: number;
	/** True once stop() was called: a long turn ends at its next safe point. */
	readonly stopping: boolean;
	/** Waits `ms`, or less when stop() is called meanwhile, so shutting down never waits out a pause. */
	sleep(ms: number): Promise<void>;
}

export interface PeriodicRunnerOptions {
	/** Names the job in its log line: `<name> failed`. */
	name: string;
	/** Turns start at whole multiples of this (epoch ms), so every process agrees on which round it is. */
	everyMs: number;
	/** What one turn does; it throws only what it could not handle (logged, and the next turn comes anyway). */
	turn: (turn: Turn) => Promise<void>;
	clock: Clock;
	log: JobLog;
}

export interface PeriodicRunner {
	/** The first turn at once, then one a round. Ignored while running or stopping. */
	start(): void;
	/** Stops after the turn in flight, if any; resolves once idle. */
	stop(): Promise<void>;
}

interface Run {
	stopping: boolean;
	wakes: Set<() => void>;
	done: Promise<void>;
}

/**
 * Runs a job's turn at once and then at every whole multiple of `everyMs`. A turn that overruns is followed at
 * once by a turn of the round then current: the rounds that began and ended while it ran are skipped, not
 * run one by one. Claims stay in each job: the runner only says when a turn is due.
 */
export function createPeriodicRunner(options: PeriodicRunnerOptions): PeriodicRunner {
	const { everyMs, clock, log } = options;
	if (!(everyMs > 0)) throw new RangeError(`${options.name}: everyMs must be above 0`);
	let current: Run | null = null;

	const sleep = async (run: Run, ms: number) =>
		new Promise<void>((resolve) => {
			if (run.stopping) return resolve();
			let cancel: () => void = () => undefined;
			const wake = () => {
				run.wakes.delete(wake);
				cancel();
				resolve();
			};
			cancel = clock.setTimer(wake, Math.max(0, ms));
			run.wakes.add(wake);
		});

	const loop = async (run: Run) => {
		while (!run.stopping) {
			const round = Math.floor(clock.now() / everyMs);
			const turn: Turn = {
				round,
				get stopping() {
					return run.stopping;
				},
				sleep: async (ms) => sleep(run, ms),
			};
			try {
				await options.turn(turn);
			} catch (error) {
				log.warn({ error: errorName(error) }, `${options.name} failed`);
			}
			if (run.stopping) break;
			// Past the next round's start (the turn overran), the next turn comes at once, as the round now current.
			await sleep(run, (round + 1) * everyMs - clock.now());
		}
	};

	return {
		start: () => {
			if (current) return;
			const run: Run = { stopping: false, wakes: new Set(), done: Promise.resolve() };
			current = run;
			run.done = loop(run);
		},
		stop: async () => {
			const run = current;
			if (!run) return;
			run.stopping = true;
			for (const wake of [...run.wakes]) wake();
			await run.done;
			if (current === run) current = null;
		},
	};
}

/** What a log line says of an error: its name, never its message, which may carry a key or a member's words. */
export function errorName(error: unknown): string {
	return error instanceof Error ? error.name : typeof error;
}

/** Starts every runner; stop() stops them all after their turns in flight, however often it is called. */
export function startAll(runners: readonly PeriodicRunner[]): { stop(): Promise<void> } {
	for (const runner of runners) runner.start();
	let stopping: Promise<void> | null = null;
	return {
		stop: () => {
			stopping ??= Promise.all(runners.map(async (runner) => runner.stop())).then(() => undefined);
			return stopping;
		},
	};
}
