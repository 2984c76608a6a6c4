// The queue's periodic work: each due delivery attempted (claimed per attempt, so one process sends it). A process
// reads the queue within 5 s of queuing or rescheduling something, at the next due time it saw, and once a minute
// otherwise: the queue is stored, so retries due while no process ran are sent within a minute of a restart.
import { errorName, type JobLog, type PeriodicJob, type Turn } from '../core/periodic-runner.js';
import { MAX_TURN_WAIT_MS, processDelivery, type DeliveryDeps } from './webhook-delivery.js';
import { takeQueuedSignal } from './queue-signal.js';
import type { QueuedDelivery } from './webhook-record.js';

/** How often the job looks: the first retry comes 5 s after a failure. */
export const WEBHOOK_SCAN_MS = 5_000;
/** How often the queue is read with nothing queued or due in sight in this process. */
export const IDLE_SCAN_MS = 60_000;
/** Attempts in flight at once in one process; each waits up to 10 s on its receiver. */
const CONCURRENCY = 16;

export const WEBHOOK_JOB = 'webhooks';

export interface Pass {
	/** Attempts put off for their host's turn. */
	putOff: number;
	/** The earliest due time of what was queued and not yet due when the queue was read; null when none. */
	nextDueAt: number | null;
}

/** One pass over the queue: every due delivery attempted, CONCURRENCY at a time. */
export async function deliverDue(deps: DeliveryDeps, turn?: Pick<Turn, 'stopping'>): Promise<Pass> {
	let putOff = 0;
	let nextDueAt: number | null = null;
	const due: QueuedDelivery[] = [];
	const now = deps.now();
	for await (const delivery of deps.store.queued()) {
		if (delivery.dueAt <= now) due.push(delivery);
		else nextDueAt = Math.min(nextDueAt ?? delivery.dueAt, delivery.dueAt);
	}
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
	return { putOff, nextDueAt };
}

/**
 * Passes until nothing due is left waiting for its host's turn: a burst to one host drains at the host's limit
 * within the turn, not one handful per scan.
 */
export async function drainDue(deps: DeliveryDeps, turn?: Pick<Turn, 'stopping'>): Promise<Pass> {
	let pass = await deliverDue(deps, turn);
	while (pass.putOff > 0 && !turn?.stopping) {
		await new Promise((resolve) => setTimeout(resolve, MAX_TURN_WAIT_MS));
		pass = await deliverDue(deps, turn);
	}
	return pass;
}

export function webhookJob(deps: DeliveryDeps & { log: JobLog }, everyMs = WEBHOOK_SCAN_MS): PeriodicJob {
	let nextScanAt = 0;
	return {
		name: WEBHOOK_JOB,
		everyMs,
		turn: async (turn) => {
			// Reading the queue lists the store's namespace: only when something here asks for it, or is due.
			if (!takeQueuedSignal(deps.store) && deps.now() < nextScanAt) return;
			const { nextDueAt } = await drainDue(deps, turn);
			nextScanAt = Math.min(deps.now() + IDLE_SCAN_MS, nextDueAt ?? Number.POSITIVE_INFINITY);
		},
		log: deps.log,
	};
}
