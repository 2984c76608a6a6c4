import { createHash } from 'node:crypto';
import { restBudgetMetrics } from '../metrics/rest-budget-metrics.js';
import { withRestJob } from '../rest-job.js';

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
export interface Turn<T = void> {
	/** The item served (a spread job's); nothing for a job of one turn an interval. */
	readonly item: T;
	/**
	 * `floor((start - offset) / everyMs)`, with the item's offset (0 without spread, so `floor(start / everyMs)`):
	 * every process has the same number for the same interval, so claims can carry it.
	 */
	readonly round: number;
	/** When the turn was due (epoch ms): the first round the item waited for, never moved on while it waited. */
	readonly dueAt: number;
	/** How late the turn is served. */
	readonly latenessMs: number;
	/** True once stop() was called: a long turn ends at its next safe point. */
	readonly stopping: boolean;
	/** Waits `ms`, or less when stop() is called meanwhile, so shutting down never waits out a pause. */
	sleep(ms: number): Promise<void>;
}

/** The items of a spread job: each served once an interval at its own offset, claimed once across processes. */
export interface SpreadItems<T> {
	/** Every item of the job (paused ones left out by the caller); read again every `rescanMs`. */
	list: () => AsyncIterable<T> | Iterable<T> | Promise<Iterable<T>>;
	/** A stable unique id of the item. */
	keyOf: (item: T) => string;
	/** The server or member id whose hash places the item inside its interval. */
	spreadBy: (item: T) => string;
	/** True for the one caller across every process sharing the store that first claims `key`. */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	/** Items served at once by this process (default 4). */
	concurrency?: number;
	/** How often the list is read again (default min(everyMs / 10, 60 s)). */
	rescanMs?: number;
}

/**
 * A feature's periodic work: its interval and what one turn does; the runner starts, stops, spreads, claims and
 * logs. Without `spread`, one turn an interval at its whole multiples, in every process (the job claims inside
 * what must run once). With it, one turn per item an interval at the item's offset, each claimed once across
 * processes, with its lateness measured and its REST calls labelled with the job's name.
 */
export interface PeriodicJob<T = void> {
	/** Names the job in its log lines and, spread, in metrics, claims and the REST budget's labels. */
	name: string;
	/** The interval (ms). */
	everyMs: number;
	/** What one turn does; it throws only what it could not handle (logged, and the next turn comes anyway). */
	turn: (turn: Turn<T>) => Promise<void>;
	spread?: SpreadItems<T>;
	log: JobLog;
}

export interface PeriodicRunner {
	/** The first turn at once, then one a round. Ignored while running or stopping. */
	start(): void;
	/** Stops after the turn in flight, if any; resolves once idle. */
	stop(): Promise<void>;
}

/** A stable offset in [0, everyMs) from a hash of `id`: the same in every process and after every restart. */
export function spreadOffset(id: string, everyMs: number): number {
	const hash = createHash('sha256').update(id).digest();
	return Math.floor((hash.readUIntBE(0, 6) / 2 ** 48) * everyMs);
}

/** What this process saw of a job's lateness: `/statchannel list` and the bench read it. */
export interface JobLateness {
	/** The worst lateness of the current or the last full interval. */
	worstMs: number;
	/** The lateness of the latest turn served. */
	lastMs: number;
	/** Turns served by this process, and those served less than one interval late. */
	served: number;
	servedWithin: number;
	everyMs: number;
}

const latenessByJob = new Map<string, JobLateness & { windowStart: number; windowWorst: number }>();

/** This process's view of `job`'s lateness; null before it served a turn. */
export function jobLateness(job: string): JobLateness | null {
	const entry = latenessByJob.get(job);
	if (!entry) return null;
	const { worstMs, lastMs, served, servedWithin, everyMs } = entry;
	return { worstMs: Math.max(worstMs, entry.windowWorst), lastMs, served, servedWithin, everyMs };
}

function recordLateness(job: string, everyMs: number, now: number, latenessMs: number): void {
	let entry = latenessByJob.get(job);
	if (!entry) {
		entry = { worstMs: 0, lastMs: 0, served: 0, servedWithin: 0, everyMs, windowStart: now, windowWorst: 0 };
		latenessByJob.set(job, entry);
	}
	if (now - entry.windowStart >= everyMs) {
		entry.worstMs = entry.windowWorst;
		entry.windowWorst = 0;
		entry.windowStart = now;
	}
	entry.windowWorst = Math.max(entry.windowWorst, latenessMs);
	entry.lastMs = latenessMs;
	entry.served += 1;
	if (latenessMs < everyMs) entry.servedWithin += 1;
	entry.everyMs = everyMs;
	const metrics = restBudgetMetrics();
	metrics.lateness.observe({ job }, latenessMs / 1000);
	metrics.worstLateness.set({ job }, Math.max(entry.worstMs, entry.windowWorst) / 1000);
}

interface Entry<T> {
	key: string;
	item: T;
	offset: number;
	/** The last round served (here or, as a lost claim told, elsewhere); null before the first. */
	lastSlot: number | null;
	/** Bumped when the entry is queued again, so older heap nodes of it are ignored. */
	version: number;
	/** Not before this (epoch ms): a claim the store could not answer is tried again a little later. */
	notBefore: number;
	removed: boolean;
	/** When this process first listed the item (epoch ms). */
	seenAt: number;
}

interface Node<T> {
	dueAt: number;
	version: number;
	entry: Entry<T>;
}

/** A binary min-heap on dueAt: the earliest due turn first, ties in order of arrival. */
class DueHeap<T> {
	private readonly nodes: Node<T>[] = [];
	get size() {
		return this.nodes.length;
	}
	peek(): Node<T> | undefined {
		return this.nodes[0];
	}
	push(node: Node<T>): void {
		const nodes = this.nodes;
		nodes.push(node);
		let i = nodes.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (nodes[parent]!.dueAt <= node.dueAt) break;
			nodes[i] = nodes[parent]!;
			i = parent;
		}
		nodes[i] = node;
	}
	pop(): Node<T> | undefined {
		const nodes = this.nodes;
		const top = nodes[0];
		const last = nodes.pop();
		if (top === undefined || last === undefined || nodes.length === 0) return top;
		let i = 0;
		for (;;) {
			const left = 2 * i + 1;
			if (left >= nodes.length) break;
			const right = left + 1;
			const child = right < nodes.length && nodes[right]!.dueAt < nodes[left]!.dueAt ? right : left;
			if (nodes[child]!.dueAt >= last.dueAt) break;
			nodes[i] = nodes[child]!;
			i = child;
		}
		nodes[i] = last;
		return top;
	}
}

const STORE_RETRY_MS = 1000;
/** A late turn claims at most this many rounds back from the current one; older ones are long past. */
const CLAIMED_BACK = 4;
/** A round's claim outlives its round, so a process that reaches the item late still finds it. */
const CLAIM_INTERVALS = 2;

interface Run {
	stopping: boolean;
	/** Ends the loop's wait. */
	wake: () => void;
	/** Ends the turns' pauses. */
	sleepers: Set<() => void>;
	done: Promise<void>;
}

/**
 * Runs a job's turns: the one loop of every periodic job. Each item (a job without spread has one, at offset 0)
 * is served once per interval at its own stable offset (a hash of its server or member), earliest due first, the
 * first turn at once. An item waiting keeps the due time of its first missed round, and a served item's next due
 * time lies beyond the time it was served: so a turn that overruns is followed at once by a turn of the round
 * then current (the rounds missed meanwhile are skipped, not run one by one), and when the REST budget cannot
 * serve every item within its interval, each is served less often, in turn, and no item gets a second turn before
 * every waiting item got its first. A spread item's (item, round) is claimed once across processes, a late turn
 * from the round it waited for to the current one; a claim lost to another process tells this one the item was
 * served.
 */
export function createPeriodicRunner<T>(job: PeriodicJob<T>, clock: Clock): PeriodicRunner {
	const { name, everyMs, spread, log } = job;
	if (!(everyMs > 0)) throw new RangeError(`${name}: everyMs must be above 0`);
	const concurrency = spread ? Math.max(1, spread.concurrency ?? 4) : 1;
	// A job without spread lists its one item once.
	const rescanMs = spread ? (spread.rescanMs ?? Math.min(everyMs / 10, 60_000)) : Infinity;
	const list = spread ? spread.list : () => [undefined as T];
	const keyOf = spread ? spread.keyOf : () => '';
	const offsetOf = spread ? (item: T) => spreadOffset(spread.spreadBy(item), everyMs) : () => 0;
	const entries = new Map<string, Entry<T>>();
	const heap = new DueHeap<T>();
	let running: Run | null = null;

	const slotAt = (entry: Entry<T>, at: number) => Math.floor((at - entry.offset) / everyMs);
	const dueOf = (entry: Entry<T>, now: number) =>
		entry.lastSlot === null
			? // Never served as far as this process knows: its round now (the claim says whether it already was).
				slotAt(entry, now) * everyMs + entry.offset
			: (entry.lastSlot + 1) * everyMs + entry.offset;
	const queue = (entry: Entry<T>, now: number) => {
		entry.version += 1;
		heap.push({ dueAt: dueOf(entry, now), version: entry.version, entry });
	};

	const rescan = async () => {
		const seen = new Set<string>();
		const now = clock.now();
		for await (const item of await list()) {
			const key = keyOf(item);
			seen.add(key);
			const known = entries.get(key);
			if (known) {
				known.item = item;
				continue;
			}
			const entry: Entry<T> = {
				key,
				item,
				offset: offsetOf(item),
				lastSlot: null,
				version: 0,
				notBefore: 0,
				removed: false,
				seenAt: now,
			};
			entries.set(key, entry);
			queue(entry, now);
		}
		for (const [key, entry] of entries) {
			if (seen.has(key)) continue;
			entry.removed = true;
			entries.delete(key);
		}
	};

	/**
	 * Claims the turn's rounds, from the one it waited for to the current one (the last CLAIMED_BACK of them when
	 * it waited longer), oldest first, and stops at the first lost: that round was served elsewhere. Claiming only
	 * the current round let a process that reached an item late serve it again just after another process served
	 * it at the end of its round, while other items still waited for their first turn.
	 */
	const claimTurn = async (entry: Entry<T>, waitedFor: number, current: number) => {
		if (!spread) return { claimed: true, slot: current };
		for (let slot = Math.max(waitedFor, current - CLAIMED_BACK + 1); slot <= current; slot += 1) {
			if (!(await spread.claimOnce(`spread:${name}:${entry.key}:${slot}`, CLAIM_INTERVALS * everyMs)))
				return { claimed: false, slot };
		}
		return { claimed: true, slot: current };
	};

	const sleep = async (run: Run, ms: number) =>
		new Promise<void>((resolve) => {
			if (run.stopping) return resolve();
			let cancel: () => void = () => undefined;
			const wake = () => {
				run.sleepers.delete(wake);
				cancel();
				resolve();
			};
			cancel = clock.setTimer(wake, Math.max(0, ms));
			run.sleepers.add(wake);
		});

	const serve = async (run: Run, entry: Entry<T>, slot: number, dueAt: number, now: number, latenessMs: number) => {
		const turn: Turn<T> = {
			item: entry.item,
			round: slot,
			dueAt,
			latenessMs,
			get stopping() {
				return run.stopping;
			},
			sleep: async (ms) => sleep(run, ms),
		};
		if (!spread) {
			try {
				await job.turn(turn);
			} catch (error) {
				log.warn({ error: errorName(error) }, `${name} failed`);
			}
			return;
		}
		recordLateness(name, everyMs, now, latenessMs);
		try {
			await withRestJob(name, async () => job.turn(turn));
		} catch (error) {
			log.warn({ job: name, error: errorName(error) }, 'periodic item failed');
		}
	};

	const turn = async (run: Run, node: Node<T>) => {
		const { entry } = node;
		const now = clock.now();
		const waitedFor = slotAt(entry, node.dueAt);
		const current = Math.max(slotAt(entry, now), waitedFor);
		let claimed: boolean;
		let slot: number;
		try {
			({ claimed, slot } = await claimTurn(entry, waitedFor, current));
		} catch (error) {
			log.warn({ job: name, error: errorName(error) }, 'periodic claim failed');
			entry.notBefore = clock.now() + STORE_RETRY_MS;
			entry.version += 1;
			heap.push({ dueAt: node.dueAt, version: entry.version, entry });
			return;
		}
		// An item's first round here began before the process knew of it (up to an interval before its start): it
		// counts as late only from when it was listed, or every start and every new item would read a whole
		// interval late. Later turns count from their due time.
		const waitingSince = entry.lastSlot === null ? Math.max(node.dueAt, entry.seenAt) : node.dueAt;
		entry.lastSlot = slot;
		if (claimed) await serve(run, entry, slot, node.dueAt, now, Math.max(0, now - waitingSince));
		if (!entry.removed) queue(entry, clock.now());
	};

	const loop = async (run: Run) => {
		let nextRescanAt = 0;
		const inFlight = new Set<Promise<void>>();
		const deferred: Node<T>[] = [];
		while (!run.stopping) {
			if (clock.now() >= nextRescanAt) {
				try {
					await rescan();
				} catch (error) {
					log.warn({ job: name, error: errorName(error) }, 'periodic list failed');
				}
				nextRescanAt = clock.now() + rescanMs;
			}
			const now = clock.now();
			while (inFlight.size < concurrency && !run.stopping) {
				const node = heap.peek();
				if (!node || node.dueAt > now) break;
				heap.pop();
				if (node.entry.removed || node.version !== node.entry.version) continue;
				if (node.entry.notBefore > now) {
					deferred.push(node);
					continue;
				}
				const task: Promise<void> = turn(run, node).finally(() => inFlight.delete(task));
				inFlight.add(task);
			}
			let retryAt = Infinity;
			for (const node of deferred.splice(0)) {
				retryAt = Math.min(retryAt, node.entry.notBefore);
				heap.push(node);
			}
			if (run.stopping) break;
			// A due node still on the heap here is one whose claim waits for the store (retryAt covers it).
			const top = heap.peek()?.dueAt ?? Infinity;
			const nextDue = top > now ? top : Infinity;
			const wakeAt = Math.min(nextRescanAt, nextDue, retryAt);
			await new Promise<void>((resolve) => {
				let cancel: () => void = () => undefined;
				const wake = () => {
					cancel();
					run.wake = () => undefined;
					resolve();
				};
				run.wake = wake;
				// While turns are in flight the loop waits for one to end, not for the clock: it then dispatches
				// whatever fell due meanwhile, and time never moves under a turn (an injected clock moves only
				// while every loop sleeps on it).
				if (inFlight.size > 0) for (const task of inFlight) void task.then(wake);
				else if (wakeAt < Infinity) cancel = clock.setTimer(wake, Math.max(0, wakeAt - clock.now()));
			});
		}
		await Promise.all(inFlight);
	};

	return {
		start: () => {
			if (running) return;
			const run: Run = { stopping: false, wake: () => undefined, sleepers: new Set(), done: Promise.resolve() };
			running = run;
			run.done = loop(run);
		},
		stop: async () => {
			const run = running;
			if (!run) return;
			run.stopping = true;
			run.wake();
			for (const wake of [...run.sleepers]) wake();
			await run.done;
			if (running === run) running = null;
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
