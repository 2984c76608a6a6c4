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
