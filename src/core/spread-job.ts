import { createHash } from 'node:crypto';
import { errorName, type Clock, type JobLog, type PeriodicRunner } from './periodic-runner.js';
import { restBudgetMetrics } from '../metrics/rest-budget-metrics.js';
import { withRestJob } from '../rest-job.js';

/** Where one item's turn stands when it is served. */
export interface SpreadSlot {
	/** `floor((now - offset) / everyMs)` when served: the slot claimed across processes. */
	readonly slot: number;
	/** When the turn was due (epoch ms): the first slot the item waited for, never moved on while it waited. */
	readonly dueAt: number;
	/** How late the turn is served. */
	readonly latenessMs: number;
}

export interface SpreadJobOptions<T> {
	/** Names the job in metrics, claims, logs and the REST budget's labels. */
	job: string;
	/** The item's interval. */
	everyMs: number;
	/** Every item of the job (paused ones left out by the caller); read again every `rescanMs`. */
	list: () => AsyncIterable<T> | Iterable<T> | Promise<Iterable<T>>;
	/** A stable unique id of the item. */
	keyOf: (item: T) => string;
	/** The server or member id whose hash places the item inside its interval. */
	spreadBy: (item: T) => string;
	/** One turn of one item; throws only what it could not handle (logged, the item comes again next slot). */
	serve: (item: T, slot: SpreadSlot) => Promise<void>;
	/** True for the one caller across every process sharing the store that first claims `key`. */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	clock: Clock;
	log: JobLog;
	/** Items served at once by this process (default 4). */
	concurrency?: number;
	/** How often the list is read again (default min(everyMs / 10, 60 s)). */
	rescanMs?: number;
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
	/** The last slot served (here or, as a lost claim told, elsewhere); null before the first. */
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
/** A late turn claims at most this many slots back from the current one; older ones are long past. */
const CLAIMED_BACK = 4;
/** A slot's claim outlives its slot, so a process that reaches the item late still finds it. */
const CLAIM_INTERVALS = 2;

/**
 * Serves each item of a periodic job once per interval at its own stable offset (a hash of its server or
 * member), earliest due first. An item waiting keeps the due time of its first missed slot, and a served
 * item's next due time lies beyond the time it was served: so when the REST budget cannot serve every item
 * within its interval, each is served less often, in turn, and no item gets a second turn before every
 * waiting item got its first. Each (item, slot) is claimed once across processes, a late turn from the slot it
 * waited for to the current one; a claim lost to another process tells this one the item was served.
 */
export function createSpreadJob<T>(options: SpreadJobOptions<T>): PeriodicRunner {
	const { job, everyMs, clock, log } = options;
	if (!(everyMs > 0)) throw new RangeError(`${job}: everyMs must be above 0`);
	const concurrency = Math.max(1, options.concurrency ?? 4);
	const rescanMs = options.rescanMs ?? Math.min(everyMs / 10, 60_000);
	const entries = new Map<string, Entry<T>>();
	const heap = new DueHeap<T>();
	let running: { stopping: boolean; wake: () => void; done: Promise<void> } | null = null;

	const slotAt = (entry: Entry<T>, at: number) => Math.floor((at - entry.offset) / everyMs);
	const dueOf = (entry: Entry<T>, now: number) =>
		entry.lastSlot === null
			? // Never served as far as this process knows: its slot now (the claim says whether it already was).
				slotAt(entry, now) * everyMs + entry.offset
			: (entry.lastSlot + 1) * everyMs + entry.offset;
	const queue = (entry: Entry<T>, now: number) => {
		entry.version += 1;
		heap.push({ dueAt: dueOf(entry, now), version: entry.version, entry });
	};

	const rescan = async () => {
		const seen = new Set<string>();
		const now = clock.now();
		for await (const item of await options.list()) {
			const key = options.keyOf(item);
			seen.add(key);
			const known = entries.get(key);
			if (known) {
				known.item = item;
				continue;
			}
			const entry: Entry<T> = {
				key,
				item,
				offset: spreadOffset(options.spreadBy(item), everyMs),
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
	 * Claims the turn's slots, from the one it waited for to the current one (the last CLAIMED_BACK of them when
	 * it waited longer), oldest first, and stops at the first lost: that slot was served elsewhere. Claiming only
	 * the current slot let a process that reached an item late serve it again just after another process served
	 * it at the end of its slot, while other items still waited for their first turn.
	 */
	const claimTurn = async (entry: Entry<T>, waitedFor: number, current: number) => {
		for (let slot = Math.max(waitedFor, current - CLAIMED_BACK + 1); slot <= current; slot += 1) {
			if (!(await options.claimOnce(`spread:${job}:${entry.key}:${slot}`, CLAIM_INTERVALS * everyMs)))
				return { claimed: false, slot };
		}
		return { claimed: true, slot: current };
	};

	const turn = async (node: Node<T>) => {
		const { entry } = node;
		const now = clock.now();
		const waitedFor = slotAt(entry, node.dueAt);
		const current = Math.max(slotAt(entry, now), waitedFor);
		let claimed: boolean;
		let slot: number;
		try {
			({ claimed, slot } = await claimTurn(entry, waitedFor, current));
		} catch (error) {
			log.warn({ job, error: errorName(error) }, 'periodic claim failed');
			entry.notBefore = clock.now() + STORE_RETRY_MS;
			entry.version += 1;
			heap.push({ dueAt: node.dueAt, version: entry.version, entry });
			return;
		}
		// An item's first slot here began before the process knew of it (up to an interval before its start): it
		// counts as late only from when it was listed, or every start and every new item would read a whole
		// interval late. Later turns count from their due time.
		const waitingSince = entry.lastSlot === null ? Math.max(node.dueAt, entry.seenAt) : node.dueAt;
		entry.lastSlot = slot;
		if (claimed) {
			const latenessMs = Math.max(0, now - waitingSince);
			recordLateness(job, everyMs, now, latenessMs);
			try {
				await withRestJob(job, async () => options.serve(entry.item, { slot, dueAt: node.dueAt, latenessMs }));
			} catch (error) {
				log.warn({ job, error: errorName(error) }, 'periodic item failed');
			}
		}
		if (!entry.removed) queue(entry, clock.now());
	};

	const loop = async (run: NonNullable<typeof running>) => {
		let nextRescanAt = 0;
		const inFlight = new Set<Promise<void>>();
		const deferred: Node<T>[] = [];
		while (!run.stopping) {
			if (clock.now() >= nextRescanAt) {
				try {
					await rescan();
				} catch (error) {
					log.warn({ job, error: errorName(error) }, 'periodic list failed');
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
				const task: Promise<void> = turn(node).finally(() => inFlight.delete(task));
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
				else cancel = clock.setTimer(wake, Math.max(0, wakeAt - clock.now()));
			});
		}
		await Promise.all(inFlight);
	};

	return {
		start: () => {
			if (running) return;
			const run = { stopping: false, wake: () => undefined as void, done: Promise.resolve() };
			running = run;
			run.done = loop(run);
		},
		stop: async () => {
			const run = running;
			if (!run) return;
			run.stopping = true;
			run.wake();
			await run.done;
			if (running === run) running = null;
		},
	};
}
