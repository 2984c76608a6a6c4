import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Status } from 'discord.js';
import {
	aggregateSnapshots,
	createMetrics,
	metricsSnapshot,
	type Metrics,
	type MetricsSnapshot,
} from '../../src/metrics/index.js';
import { findSamples, parsePrometheusText, sampleValue, seriesKey, type Exposition } from './prometheus-text.js';

const COMMANDS = ['stats', 'link'] as const;

// What a ShardingManager child sends: IPC serialises the snapshot as JSON.
async function overIpc(metrics: Metrics): Promise<MetricsSnapshot> {
	return JSON.parse(JSON.stringify(await metricsSnapshot(metrics))) as MetricsSnapshot;
}

async function aggregateText(children: Metrics[]): Promise<Exposition> {
	const registry = aggregateSnapshots(await Promise.all(children.map(overIpc)));
	return parsePrometheusText(await registry.metrics());
}

function assertNoDuplicateSeries(exposition: Exposition): void {
	const keys = exposition.samples.map(seriesKey);
	const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);
	assert.deepEqual(duplicates, []);
}

describe('aggregateSnapshots', () => {
	it('sums the counters and histograms of two processes into one series each', async () => {
		const shard0 = createMetrics({ commands: COMMANDS, collectDefault: false });
		const shard1 = createMetrics({ commands: COMMANDS, collectDefault: false });
		shard0.interactions.inc({ command: 'stats', outcome: 'answered' });
		shard0.interactions.inc({ command: 'stats', outcome: 'answered' });
		shard1.interactions.inc({ command: 'stats', outcome: 'answered' });
		shard1.interactions.inc({ command: 'link', outcome: 'expired' });
		shard0.ackSeconds.observe({ command: 'stats' }, 0.02);
		shard1.ackSeconds.observe({ command: 'stats' }, 4);
		shard0.recordDiscordRestResponse(429);
		shard1.recordDiscordRestResponse(429);

		const exposition = await aggregateText([shard0, shard1]);
		assertNoDuplicateSeries(exposition);
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'stats', outcome: 'answered' }), 3);
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'link', outcome: 'expired' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'link', outcome: 'answered' }), 0);
		assert.equal(sampleValue(exposition, 'adstats_discord_rest_invalid_responses_total', { status: '429' }), 2);
		const ack = (le: string) =>
			sampleValue(exposition, 'adstats_interaction_ack_seconds_bucket', { command: 'stats', le });
		assert.deepEqual([ack('0.025'), ack('3'), ack('5'), ack('+Inf')], [1, 1, 2, 2]);
		assert.equal(sampleValue(exposition, 'adstats_interaction_ack_seconds_count', { command: 'stats' }), 2);
		assert.equal(exposition.types.get('adstats_interactions_total'), 'counter');
		assert.equal(exposition.types.get('adstats_interaction_ack_seconds'), 'histogram');
	});

	it('keeps each shard of each process in its own status series', async () => {
		const first = createMetrics({ commands: COMMANDS, collectDefault: false });
		const second = createMetrics({ commands: COMMANDS, collectDefault: false });
		first.shardStatus.set(0, Status.Ready);
		second.shardStatus.set(1, Status.Resuming);
		const exposition = await aggregateText([first, second]);
		assertNoDuplicateSeries(exposition);
		assert.equal(sampleValue(exposition, 'adstats_shard_status', { shard: '0', status: 'ready' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_shard_status', { shard: '1', status: 'resuming' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_shard_status', { shard: '1', status: 'ready' }), 0);
	});

	it('keeps processes apart when each carries its own default label', async () => {
		const first = createMetrics({ commands: COMMANDS, collectDefault: false, defaultLabels: { process: '0' } });
		const second = createMetrics({ commands: COMMANDS, collectDefault: false, defaultLabels: { process: '1' } });
		first.storeErrors.inc({ operation: 'read' });
		const exposition = await aggregateText([first, second]);
		assertNoDuplicateSeries(exposition);
		const errors = (process: string) =>
			sampleValue(exposition, 'adstats_store_errors_total', { operation: 'read', process });
		assert.deepEqual([errors('0'), errors('1')], [1, 0]);
	});

	it('merges the default process metrics of every process without a duplicate series', async () => {
		const first = createMetrics({ commands: COMMANDS });
		const second = createMetrics({ commands: COMMANDS });
		const exposition = await aggregateText([first, second]);
		assertNoDuplicateSeries(exposition);
		assert.equal(findSamples(exposition, 'process_cpu_user_seconds_total').length, 1);
		assert.equal(findSamples(exposition, 'nodejs_eventloop_lag_p99_seconds').length, 1);
	});
});
