import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { boundLabel } from './labels.js';

/** The kinds of job that spend the REST budget; any other name is recorded as `other`. */
export const REST_JOBS = [
	'statchannels',
	'alerts',
	'reports',
	'sampler',
	'boards',
	'digests',
	'audit',
	'other',
] as const;

const PREFIX = 'adstats_';
// A call waits at most a few seconds while the budget keeps up; minutes when it does not.
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const LATENESS_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 3600];

/**
 * The budget's and the spread scheduler's series. They live once per process (the budget and the jobs are
 * per process, not per context) and join a context's registry through registerRestBudgetMetrics.
 */
function create() {
	const calls = new Counter({
		name: `${PREFIX}discord_rest_budget_calls_total`,
		help: 'Bot-token REST calls let through by the shared budget, by job; waited: the call had to wait for a second',
		labelNames: ['job', 'outcome'],
		registers: [],
	});
	const wait = new Histogram({
		name: `${PREFIX}discord_rest_budget_wait_seconds`,
		help: 'Time a bot-token REST call waited for the shared budget',
		labelNames: ['job'],
		buckets: WAIT_BUCKETS,
		registers: [],
	});
	const global429 = new Counter({
		name: `${PREFIX}discord_global_rate_limits_total`,
		help: 'Global 429s (X-RateLimit-Global) Discord answered: every caller waited its retry_after (goal: none)',
		registers: [],
	});
	const lateness = new Histogram({
		name: `${PREFIX}periodic_lateness_seconds`,
		help: "How late a periodic job's item was served after its due time",
		labelNames: ['job'],
		buckets: LATENESS_BUCKETS,
		registers: [],
	});
	const worstLateness = new Gauge({
		name: `${PREFIX}periodic_worst_lateness_seconds`,
		help: "The latest round's worst lateness of a periodic job's items",
		labelNames: ['job'],
		registers: [],
	});
	const job = (name: string) => boundLabel(REST_JOBS, name);
	return {
		all: [calls, wait, global429, lateness, worstLateness],
		calls: {
			inc: (labels: { job: string; outcome: 'granted' | 'waited' }) => calls.inc({ ...labels, job: job(labels.job) }),
		},
		wait: { observe: (labels: { job: string }, seconds: number) => wait.observe({ job: job(labels.job) }, seconds) },
		global429: { inc: () => global429.inc() },
		lateness: {
			observe: (labels: { job: string }, seconds: number) => lateness.observe({ job: job(labels.job) }, seconds),
		},
		worstLateness: {
			set: (labels: { job: string }, seconds: number) => worstLateness.set({ job: job(labels.job) }, seconds),
		},
		/** For tests and the bench: the process's count of global 429s. */
		global429Count: async () => (await global429.get()).values.reduce((sum, value) => sum + value.value, 0),
	};
}

let metrics: ReturnType<typeof create> | null = null;
const joined = new WeakSet<Registry>();

export function restBudgetMetrics(): ReturnType<typeof create> {
	metrics ??= create();
	return metrics;
}

/** Adds the budget's and the scheduler's series to `registry` (once however often it is called). */
export function registerRestBudgetMetrics(registry: Registry): void {
	if (joined.has(registry)) return;
	joined.add(registry);
	for (const metric of restBudgetMetrics().all) registry.registerMetric(metric);
}
