import { AsyncLocalStorage } from 'node:async_hooks';

const jobs = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with its bot-token REST calls labelled `job` in the REST budget's metrics (`other` outside any
 * job). The spread scheduler does this for its items; a caller outside it (a digest send) wraps its own work.
 */
export async function withRestJob<T>(job: string, fn: () => Promise<T>): Promise<T> {
	return jobs.run(job, fn);
}

/** The job the current call belongs to, for the budget's metrics. */
export const currentRestJob = (): string => jobs.getStore() ?? 'other';

const answering = new AsyncLocalStorage<true>();

/**
 * Runs `fn` for an interaction's only response (an autocomplete, which cannot be deferred): its bot-token calls
 * are made only when the budget has a slot at once, and are refused (RestBudgetBusyError) rather than queued,
 * so the response never waits for the budget.
 */
export async function withoutBudgetWait<T>(fn: () => Promise<T>): Promise<T> {
	return answering.run(true, fn);
}

/** Whether the current call must not wait for the budget. */
export const mustNotWaitForBudget = (): boolean => answering.getStore() === true;
