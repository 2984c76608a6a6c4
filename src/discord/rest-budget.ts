import type { REST } from 'discord.js';
import { restBudgetMetrics } from '../metrics/rest-budget-metrics.js';
import { currentRestJob, mustNotWaitForBudget } from '../rest-job.js';
import { BUDGET_STORE_WAIT_MS, openBudgetCounter, type BudgetCounter } from '../store/rest-budget-counter.js';

export { withRestJob, currentRestJob } from '../rest-job.js';

/** Discord's default for what the bot's processes together may send in a second (it allows 50). */
export const DEFAULT_REST_PER_SECOND = 40;
/** After the store failed, this long the process counts on its own share without asking it again. */
const STORE_DOWN_MS = 2000;

export interface RestBudgetOptions {
	perSecond: number;
	/** Null: this process alone spends the budget (SQLite, a CLI), counted in memory. */
	counter: BudgetCounter | null;
	/** Processes sharing the budget: while the store fails each spends perSecond / processes on its own. */
	processes?: number;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
	/** Bounded wait for the store's answer; past it the process uses its own share. */
	storeWaitMs?: number;
}

export interface RestBudget {
	/** Resolves once the call may be made in the current wall-clock second; waits its turn in order of arrival. */
	acquire(job?: string): Promise<void>;
	/** A global 429: every caller of every process waits until `untilMs`, then the calls are made. */
	holdUntil(untilMs: number): void;
	readonly perSecond: number;
	close(): Promise<void>;
}

/**
 * The counts of recent seconds kept in memory: the whole budget alone, or a process's share while the store fails.
 * More than one second: a late grant takes a slot of this second and of the next.
 */
function memoryCounter() {
	const counts = new Map<number, number>();
	return (at: number) => {
		const count = (counts.get(at) ?? 0) + 1;
		counts.set(at, count);
		for (const second of counts.keys()) if (second < at - 1) counts.delete(second);
		return count;
	};
}

const realSleep = async (ms: number) =>
	new Promise<void>((resolve) => {
		setTimeout(resolve, Math.max(0, ms));
	});

/**
 * One budget of `perSecond` calls per wall-clock second, counted per epoch second in the store so that every
 * process spends the same budget; a second's count is never carried over, so no second carries more (a token
 * bucket with a burst would). Waiters are served in order of arrival by one loop per process, which asks the
 * store once per grant. When the store does not answer within a short wait, the process spends its own share
 * (perSecond / processes) for a second before asking again.
 */
/**
 * Slots of a second are spread over its first 500 ms, and none of its own is granted in its last 400 ms: a call
 * granted late in its second still reaches Discord within it when the host, @discordjs/rest's queue or the network
 * delays it by a few hundred milliseconds (with 800/900 ms, a loaded 2-core host landed 48 in one second). A call
 * in those 400 ms is granted only as a late grant (below), counted in that second and the next.
 */
const SLOT_SPAN_MS = 500;
const LAST_GRANT_MS = 600;
/**
 * In a second's quiet end a call is still granted at once while the second has used at most this share of the
 * budget: it takes a slot of this second and one of the next, so it is counted in whichever second it reaches
 * Discord, and a budget that is not near full no longer makes a call wait up to 400 ms (the manage page's p99 was
 * 440 ms at 21 calls a second). Near full, a late call waits for the next second as before: the second slot it
 * would take is one the next second's waiters need.
 */
const LATE_GRANT_SHARE = 0.75;
/**
 * How long a call that must not wait (an autocomplete's) may take to get its slot, with nobody queued before it,
 * before it is refused: a free budget's slot comes within the second's quiet end (400 ms) and a little more.
 */
const AT_ONCE_MS = 500;

/** The budget had no slot at once for a call that must not wait; the caller answers without that call. */
export class RestBudgetBusyError extends Error {
	override name = 'RestBudgetBusyError';
	constructor() {
		super('no REST budget slot free at once');
	}
}

export function createRestBudget(options: RestBudgetOptions): RestBudget {
	const { perSecond, counter } = options;
	const now = options.now ?? Date.now;
	const sleep = options.sleep ?? realSleep;
	const storeWaitMs = options.storeWaitMs ?? BUDGET_STORE_WAIT_MS;
	const share = Math.max(1, Math.floor(perSecond / Math.max(1, options.processes ?? 1)));
	const alone = memoryCounter();
	const insurance = memoryCounter();
	const metrics = restBudgetMetrics();
	let storeDownUntil = 0;
	let heldUntil = 0;
	const waiters: { job: string; since: number; atOnce?: boolean; grant: () => void }[] = [];
	let pumping = false;

	const askStore = async (second: number): Promise<{ count: number; limit: number }> => {
		if (counter === null) return { count: alone(second), limit: perSecond };
		if (now() >= storeDownUntil) {
			let timer: NodeJS.Timeout | undefined;
			const late = new Promise<null>((resolve) => {
				timer = setTimeout(() => resolve(null), storeWaitMs);
			});
			const taken = counter.take(second).catch(() => null);
			const answer = await Promise.race([taken, late]).finally(() => clearTimeout(timer));
			if (answer !== null) {
				if (answer.holdUntil > heldUntil) heldUntil = answer.holdUntil;
				return { count: answer.count, limit: perSecond };
			}
			storeDownUntil = now() + STORE_DOWN_MS;
		}
		return { count: insurance(second), limit: share };
	};

	const grantNext = () => {
		const waiter = waiters.shift();
		if (!waiter) return;
		const waited = now() - waiter.since;
		metrics.calls.inc({ job: waiter.job, outcome: waited > 0 ? 'waited' : 'granted' });
		metrics.wait.observe({ job: waiter.job }, waited / 1000);
		waiter.grant();
	};

	/**
	 * In `second`'s quiet end: grants the next waiter at once when the second is not near full, counting the call in
	 * this second and the next (it may reach Discord in either). False when it must wait for the next second; a slot
	 * taken then is left unused, which only ever errs on the safe side.
	 */
	const grantLate = async (second: number): Promise<boolean> => {
		const here = await askStore(second);
		if (heldUntil > now() || here.count > Math.floor(here.limit * LATE_GRANT_SHARE)) return false;
		const next = await askStore(second + 1);
		// A slow store answer may bring the grant into the next second: still counted there, unless past its own end.
		if (heldUntil > now() || next.count > next.limit || now() >= (second + 1) * 1000 + LAST_GRANT_MS) return false;
		grantNext();
		return true;
	};

	const pump = async () => {
		if (pumping) return;
		pumping = true;
		try {
			while (waiters.length > 0) {
				const at = now();
				if (heldUntil > at) {
					await sleep(heldUntil - at);
					continue;
				}
				const second = Math.floor(at / 1000);
				if (at - second * 1000 >= LAST_GRANT_MS) {
					if (await grantLate(second)) continue;
					await sleep((second + 1) * 1000 - now());
					continue;
				}
				const { count, limit } = await askStore(second);
				if (heldUntil > now()) continue;
				if (count <= limit) {
					// The n-th slot of a second starts n/limit of the way into its first SLOT_SPAN_MS: the calls of a
					// second arrive spread, and the rest of the second is left free, so a call that a busy host or
					// @discordjs/rest's own queue delays still reaches Discord within the second it counted in.
					const slotAt = second * 1000 + ((count - 1) * SLOT_SPAN_MS) / limit;
					if (slotAt > now()) await sleep(slotAt - now());
					// A timer that fired late, near or past the end of its second: that slot counted there, so take one
					// of the next second rather than send a call that would land in it uncounted.
					if (now() - second * 1000 >= LAST_GRANT_MS) continue;
					if (waiters.length === 0) break;
					grantNext();
					continue;
				}
				// This second is spent (here or by another process): the next one starts a fresh count.
				await sleep((second + 1) * 1000 - now());
			}
		} finally {
			pumping = false;
		}
	};

	/** A slot only if one is free now: nobody queued, no hold, and granted within AT_ONCE_MS; else refused. */
	const acquireAtOnce = async (job: string): Promise<void> => {
		// Calls of the same response (an autocomplete describing several channels) may queue with each other.
		if (waiters.some((waiter) => !waiter.atOnce) || heldUntil > now()) throw new RestBudgetBusyError();
		return new Promise<void>((resolve, reject) => {
			const waiter = { job, since: now(), atOnce: true, grant: () => (clearTimeout(timer), resolve()) };
			const timer = setTimeout(() => {
				const index = waiters.indexOf(waiter);
				if (index === -1) return;
				waiters.splice(index, 1);
				reject(new RestBudgetBusyError());
			}, AT_ONCE_MS);
			waiters.push(waiter);
			void pump();
		});
	};

	return {
		perSecond,
		acquire: async (job = currentRestJob()) => {
			if (mustNotWaitForBudget()) return acquireAtOnce(job);
			return new Promise<void>((resolve) => {
				waiters.push({ job, since: now(), grant: resolve });
				void pump();
			});
		},
		holdUntil: (untilMs) => {
			metrics.global429.inc();
			if (untilMs > heldUntil) heldUntil = untilMs;
			void counter?.hold(untilMs).catch(() => undefined);
		},
		close: async () => counter?.close(),
	};
}

/** Interaction callbacks and webhook follow-ups (token in the path): Discord does not count them. */
export function isInteractionRoute(fullRoute: string): boolean {
	return fullRoute.startsWith('/interactions/') || /^\/webhooks\/\d+\/[^/]+/.test(fullRoute);
}

const budgeted = new WeakSet<REST>();
/** The job label of the slot a call refused by a global 429 takes for the retry @discordjs/rest makes. */
export const GLOBAL_RETRY_JOB = 'global-429-retry';

/**
 * Puts every call of `rest` through `budget` before @discordjs/rest sees it (all its methods end in
 * queueRequest, so methods added later are covered), and turns a global 429 into a hold of every caller.
 * @discordjs/rest itself waits out that 429 and makes the call then.
 */
export function applyRestBudget(rest: REST, budget: RestBudget): REST {
	if (budgeted.has(rest)) return rest;
	budgeted.add(rest);
	const queueRequest = rest.queueRequest.bind(rest);
	rest.queueRequest = async (request) => {
		if (!isInteractionRoute(request.fullRoute)) await budget.acquire();
		return queueRequest(request);
	};
	rest.on('response', (_request, response) => {
		if (response.status !== 429 || !response.headers.get('x-ratelimit-global')) return;
		const seconds = Number(response.headers.get('retry-after') ?? '1');
		budget.holdUntil(Date.now() + (Number.isFinite(seconds) ? seconds : 1) * 1000);
		// @discordjs/rest makes the refused call again once the hold ends, inside its own queue where this wrapper
		// never sees it: take that call's slot now, so it is granted after the hold like every waiting call and the
		// second it lands in is not carried past the budget.
		void budget.acquire(GLOBAL_RETRY_JOB);
	});
	return rest;
}

const processBudgets = new Map<number, RestBudget>();

/** The budget of a process that shares none (SQLite, doctor, register): one per rate, in memory. */
export function processRestBudget(perSecond = DEFAULT_REST_PER_SECOND): RestBudget {
	let budget = processBudgets.get(perSecond);
	if (!budget) {
		budget = createRestBudget({ perSecond, counter: null });
		processBudgets.set(perSecond, budget);
	}
	return budget;
}

/**
 * The budget of the processes sharing `storeUrl`: counted in Redis or PostgreSQL, in memory on SQLite (one
 * process owns the file).
 */
export async function openRestBudget(
	storeUrl: string,
	options: { perSecond: number; processes?: number; namespacePrefix?: string; onError?: (error: unknown) => void },
): Promise<RestBudget> {
	const counter = await openBudgetCounter(storeUrl, options);
	if (counter === null) return processRestBudget(options.perSecond);
	return createRestBudget({ perSecond: options.perSecond, counter, processes: options.processes });
}
