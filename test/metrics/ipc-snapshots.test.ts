import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import type { Shard } from 'discord.js';
import {
	aggregateSnapshots,
	collectSnapshots,
	createMetrics,
	metricsSnapshot,
	type IpcParent,
	type IpcPeer,
} from '../../src/metrics/index.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';

// The typecheck fails if either end stops fitting what discord.js's ShardingManager gives in each mode.
export const fitsShard = (shard: Shard): IpcPeer => shard;
export const fitsChildProcess = (child: ChildProcess): IpcPeer => child;
export const fitsProcess = (): IpcParent => process;
export const fitsWorkerPort = (port: MessagePort): IpcParent => port;

const CHILD = fileURLToPath(new URL('./snapshot-child.ts', import.meta.url));
const children: ChildProcess[] = [];

after(async () => {
	await Promise.all(
		children.map(async (child) => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = once(child, 'exit');
			child.kill();
			await exited;
		}),
	);
});

async function startChild(interactions: number, mode: 'answer' | 'silent' = 'answer'): Promise<ChildProcess> {
	const child = fork(CHILD, [String(interactions), mode], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
	children.push(child);
	const [message] = (await once(child, 'message')) as [{ type: string }];
	assert.equal(message.type, 'started');
	return child;
}

describe('collectSnapshots', { timeout: 90_000 }, () => {
	it('gathers each child process snapshot over IPC and sums them with the manager own', async () => {
		const [first, second] = await Promise.all([startChild(2), startChild(3)]);
		const manager = createMetrics({ commands: ['stats'], collectDefault: false });
		manager.interactions.inc({ command: 'stats', outcome: 'answered' });

		const { snapshots, missing } = await collectSnapshots([first!, second!]);
		assert.equal(missing, 0);
		const registry = aggregateSnapshots([await metricsSnapshot(manager), ...snapshots]);
		const exposition = parsePrometheusText(await registry.metrics());
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'stats', outcome: 'answered' }), 6);
	});

	it('leaves out a child that does not answer, within the deadline', async () => {
		const [answering, silent] = await Promise.all([startChild(4), startChild(7, 'silent')]);
		const started = performance.now();
		const { snapshots, missing } = await collectSnapshots([answering!, silent!], 300);
		const elapsed = performance.now() - started;
		assert.equal(missing, 1);
		assert.equal(snapshots.length, 1);
		assert.ok(elapsed < 2000, `took ${elapsed} ms`);
		const exposition = parsePrometheusText(await aggregateSnapshots(snapshots).metrics());
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'stats', outcome: 'answered' }), 4);
	});

	it('counts a child that has exited as missing without waiting', async () => {
		const child = await startChild(1);
		const exited = once(child, 'exit');
		child.kill();
		await exited;
		const started = performance.now();
		const { missing } = await collectSnapshots([child], 5000);
		assert.equal(missing, 1);
		const elapsed = performance.now() - started;
		assert.ok(elapsed < 2500, `took ${elapsed} ms against a deadline of 5000 ms`);
	});
});
