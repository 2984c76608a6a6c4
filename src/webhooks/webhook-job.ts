// The queue's periodic work: every few seconds, each due delivery is attempted (claimed per attempt, so one process
// sends it). The queue is stored, so retries due while no process ran are sent at the next scan after a restart.
import { errorName, type JobLog, type PeriodicJob, type Turn } from '../core/periodic-runner.js';
import { MAX_TURN_WAIT_MS, processDelivery, type DeliveryDeps } from './webhook-delivery.js';
import type { QueuedDelivery } from './webhook-record.js';

/** How often the queue is read: the first retry comes 5 s after a failure. */
export const WEBHOOK_SCAN_MS = 5_000;
/** Attempts in flight at once in one process; each waits up to 10 s on its receiver. */
const CONCURRENCY = 16;

export const WEBHOOK_JOB = 'webhooks';

/** One pass over the queue: every due delivery attempted, CONCURRENCY at a time; how many were put off. */
export async function deliverDue(deps: DeliveryDeps, turn?: Pick<Turn, 'stopping'>): Promise<number> {
	let putOff = 0;
	const due: QueuedDelivery[] = [];
	const now = deps.now();
	for await (const delivery of deps.store.queued()) if (delivery.dueAt <= now) due.push(delivery);
	due.sort((a, b) => a.dueAt - b.dueAt);
	let next = 0;
	const worker = async () => {
		while (next < due.length && !turn?.stopping) {
			const delivery = due[next++]!;
			try {
				if ((await processDelivery(deps, delivery)) === 'putOff') putOff += 1;
			} catch (error) {
				deps.log.warn(
					{ guildId: delivery.guildId, webhook: delivery.webhookId, error: errorName(error) },
					'webhook delivery failed',
				);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
	return putOff;
}

/**
 * Passes until nothing due is left waiting for its host's turn: a burst to one host drains at the host's limit
 * within the turn, not one handful per scan.
 */
export async function drainDue(deps: DeliveryDeps, turn?: Pick<Turn, 'stopping'>): Promise<void> {
	while ((await deliverDue(deps, turn)) > 0 && !turn?.stopping) {
		await new Promise((resolve) => setTimeout(resolve, MAX_TURN_WAIT_MS));
	}
}

export function webhookJob(deps: DeliveryDeps & { log: JobLog }, everyMs = WEBHOOK_SCAN_MS): PeriodicJob {
	return { name: WEBHOOK_JOB, everyMs, turn: async (turn) => drainDue(deps, turn), log: deps.log };
}
