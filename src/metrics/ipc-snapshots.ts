// How the ShardingManager process gathers its children's metrics: a request and an answer over the IPC channel
// every child already has. Works with discord.js Shard objects on the manager side and `process` (or a worker's
// `parentPort`) on the child side, or any ChildProcess, since it needs only send and message events.
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { metricsSnapshot, type MetricsSnapshot } from './aggregate.js';

const REQUEST = 'adstats:metrics-snapshot:request';
const ANSWER = 'adstats:metrics-snapshot:answer';
/** A child that has not answered within this is left out of the scrape. */
export const SNAPSHOT_DEADLINE_MS = 2000;

export interface IpcPeer {
	send(message: unknown, callback?: (error: Error | null) => void): unknown;
	on(event: 'message', listener: (message: unknown) => void): unknown;
	off(event: 'message', listener: (message: unknown) => void): unknown;
}

/** The child's end: `process` in a child process, `parentPort` in a worker thread. */
export interface IpcParent {
	send?(message: unknown): unknown;
	postMessage?(message: unknown): unknown;
	on(event: 'message', listener: (message: unknown) => void): unknown;
	off(event: 'message', listener: (message: unknown) => void): unknown;
}

interface SnapshotRequest {
	type: typeof REQUEST;
	id: string;
}

interface SnapshotAnswer {
	type: typeof ANSWER;
	id: string;
	snapshot: MetricsSnapshot;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
	return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/**
 * In a child process: answers the manager's snapshot requests, after `beforeSnapshot` (which brings gauges read
 * from elsewhere up to date, as before a scrape). Returns a function that stops answering.
 */
export function answerSnapshotRequests(
	metrics: { registry: Registry },
	parent: IpcParent,
	beforeSnapshot?: () => void,
): () => void {
	const listener = (message: unknown) => {
		if (!isMessage<SnapshotRequest>(message, REQUEST)) return;
		beforeSnapshot?.();
		// A failed snapshot goes unanswered: the manager leaves this child out of the scrape at its deadline.
		void metricsSnapshot(metrics)
			.then((snapshot) => {
				const answer: SnapshotAnswer = { type: ANSWER, id: message.id, snapshot };
				if (parent.send) parent.send(answer);
				else parent.postMessage?.(answer);
			})
			.catch(() => undefined);
	};
	parent.on('message', listener);
	return () => parent.off('message', listener);
}

function requestSnapshot(child: IpcPeer, deadlineMs: number): Promise<MetricsSnapshot | null> {
	const id = randomUUID();
	return new Promise((resolve) => {
		const finish = (snapshot: MetricsSnapshot | null) => {
			clearTimeout(timer);
			child.off('message', listener);
			resolve(snapshot);
		};
		const listener = (message: unknown) => {
			if (isMessage<SnapshotAnswer>(message, ANSWER) && message.id === id) finish(message.snapshot);
		};
		const timer = setTimeout(() => finish(null), deadlineMs);
		child.on('message', listener);
		const request: SnapshotRequest = { type: REQUEST, id };
		try {
			// A ChildProcess reports a closed channel to the callback (else as an 'error' event that would crash the
			// manager); a discord.js Shard ignores the callback and rejects its promise instead.
			const sent = child.send(request, (error) => {
				if (error) finish(null);
			});
			if (sent instanceof Promise) sent.catch(() => finish(null));
		} catch {
			finish(null);
		}
	});
}

/**
 * In the manager process: asks every child for its snapshot at once. `missing` counts the children that did not
 * answer within the deadline (respawning, hung); their series are absent from this scrape.
 */
export async function collectSnapshots(
	children: readonly IpcPeer[],
	deadlineMs = SNAPSHOT_DEADLINE_MS,
): Promise<{ snapshots: MetricsSnapshot[]; missing: number }> {
	const answers = await Promise.all(children.map((child) => requestSnapshot(child, deadlineMs)));
	const snapshots = answers.filter((answer): answer is MetricsSnapshot => answer !== null);
	return { snapshots, missing: answers.length - snapshots.length };
}
