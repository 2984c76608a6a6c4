import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Status } from 'discord.js';
import {
	createMetrics,
	INTERACTION_OUTCOMES,
	SHARD_STATUSES,
	type ChartRendererLabel,
	type InteractionOutcome,
	type StoreOperation,
} from '../../src/metrics/index.js';
import { findSamples, parsePrometheusText, sampleValue, seriesKey, type Exposition } from './prometheus-text.js';

const COMMANDS = ['stats', 'link', 'help'] as const;

async function scrape(metrics: { registry: { metrics(): Promise<string> } }): Promise<Exposition> {
	return parsePrometheusText(await metrics.registry.metrics());
}

function bare() {
	return createMetrics({ commands: COMMANDS, collectDefault: false });
}

describe('createMetrics', () => {
	it('gives each call a registry of its own', async () => {
		const first = bare();
		const second = bare();
		first.interactions.inc({ command: 'stats', outcome: 'answered' });
		assert.notEqual(first.registry, second.registry);
		const labels = { command: 'stats', outcome: 'answered' };
		assert.equal(sampleValue(await scrape(first), 'adstats_interactions_total', labels), 1);
		assert.equal(sampleValue(await scrape(second), 'adstats_interactions_total', labels), 0);
	});

	it('shows every command and outcome at zero before the first interaction', async () => {
		const exposition = await scrape(bare());
		assert.equal(exposition.types.get('adstats_interactions_total'), 'counter');
		for (const command of COMMANDS) {
			for (const outcome of INTERACTION_OUTCOMES) {
				assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command, outcome }), 0);
			}
		}
		for (const status of ['401', '403', '429']) {
			assert.equal(sampleValue(exposition, 'adstats_discord_rest_invalid_responses_total', { status }), 0);
		}
	});

	it('counts interactions by command and outcome', async () => {
		const metrics = bare();
		metrics.interactions.inc({ command: 'stats', outcome: 'answered' });
		metrics.interactions.inc({ command: 'stats', outcome: 'answered' });
		metrics.interactions.inc({ command: 'stats', outcome: 'expired' });
		metrics.interactions.inc({ command: 'link', outcome: 'user_error' });
		const exposition = await scrape(metrics);
		const count = (command: string, outcome: InteractionOutcome) =>
			sampleValue(exposition, 'adstats_interactions_total', { command, outcome });
		assert.equal(count('stats', 'answered'), 2);
		assert.equal(count('stats', 'expired'), 1);
		assert.equal(count('link', 'user_error'), 1);
		assert.equal(count('link', 'answered'), 0);
	});

	it('puts acknowledgement times in second buckets around the 3 s deadline', async () => {
		const metrics = bare();
		metrics.ackSeconds.observe({ command: 'stats' }, 0.004);
		metrics.ackSeconds.observe({ command: 'stats' }, 2.7);
		const exposition = await scrape(metrics);
		const bucket = (le: string) =>
			sampleValue(exposition, 'adstats_interaction_ack_seconds_bucket', { command: 'stats', le });
		assert.equal(exposition.types.get('adstats_interaction_ack_seconds'), 'histogram');
		assert.equal(bucket('0.005'), 1);
		assert.equal(bucket('2.5'), 1);
		assert.equal(bucket('3'), 2);
		assert.equal(bucket('+Inf'), 2);
		assert.equal(sampleValue(exposition, 'adstats_interaction_ack_seconds_count', { command: 'stats' }), 2);
	});

	it('times a reply with startTimer in seconds', async () => {
		const metrics = bare();
		const end = metrics.replySeconds.startTimer({ command: 'help' });
		const seconds = end();
		assert.ok(seconds >= 0 && seconds < 1, `a reply timed at ${seconds} s`);
		const exposition = await scrape(metrics);
		assert.equal(sampleValue(exposition, 'adstats_interaction_reply_seconds_count', { command: 'help' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_interaction_reply_seconds_bucket', { command: 'help', le: '1' }), 1);
	});

	it('classes upstream requests by status, network failure and timeout', async () => {
		const metrics = bare();
		metrics.recordUpstream(200, 0.05);
		metrics.recordUpstream(204, 0.05);
		metrics.recordUpstream(401, 0.02);
		metrics.recordUpstream(503, 0.3);
		metrics.recordUpstream('network', 0.001);
		metrics.recordUpstream('timeout', 5);
		const exposition = await scrape(metrics);
		const count = (status_class: string) =>
			sampleValue(exposition, 'adstats_upstream_requests_total', { status_class });
		assert.deepEqual(['2xx', '3xx', '4xx', '5xx', 'network', 'timeout'].map(count), [2, 0, 1, 1, 1, 1]);
		assert.equal(sampleValue(exposition, 'adstats_upstream_request_seconds_sum', { status_class: 'timeout' }), 5);
	});

	it('counts snapshot cache results, chart renders and store errors', async () => {
		const metrics = bare();
		metrics.snapshotCache.inc({ result: 'hit' });
		metrics.snapshotCache.inc({ result: 'stale' });
		metrics.recordChartRender('local', 'ok', 0.012);
		metrics.recordChartRender('quickchart', 'timeout', 5);
		metrics.storeErrors.inc({ operation: 'read' });
		const exposition = await scrape(metrics);
		assert.equal(sampleValue(exposition, 'adstats_snapshot_cache_lookups_total', { result: 'hit' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_snapshot_cache_lookups_total', { result: 'miss' }), 0);
		assert.equal(sampleValue(exposition, 'adstats_snapshot_cache_lookups_total', { result: 'stale' }), 1);
		const renders = (renderer: ChartRendererLabel, outcome: string) =>
			sampleValue(exposition, 'adstats_chart_renders_total', { renderer, outcome });
		assert.equal(renders('local', 'ok'), 1);
		assert.equal(renders('quickchart', 'timeout'), 1);
		assert.equal(renders('quickchart', 'ok'), 0);
		assert.equal(sampleValue(exposition, 'adstats_chart_render_seconds_bucket', { renderer: 'local', le: '0.025' }), 1);
		const errors = (operation: StoreOperation) => sampleValue(exposition, 'adstats_store_errors_total', { operation });
		assert.equal(errors('read'), 1);
		assert.equal(errors('write'), 0);
	});

	it('counts only the Discord responses that lead to a Cloudflare ban', async () => {
		const metrics = bare();
		for (const status of [200, 204, 401, 403, 403, 404, 429, 429, 429, 500]) metrics.recordDiscordRestResponse(status);
		const exposition = await scrape(metrics);
		const count = (status: string) =>
			sampleValue(exposition, 'adstats_discord_rest_invalid_responses_total', { status });
		assert.deepEqual(['401', '403', '429'].map(count), [1, 2, 3]);
		assert.equal(findSamples(exposition, 'adstats_discord_rest_invalid_responses_total').length, 3);
	});

	it('shows one current status per shard', async () => {
		const metrics = bare();
		metrics.shardStatus.set(0, Status.Ready);
		metrics.shardStatus.set(1, Status.Ready);
		metrics.shardStatus.set(1, Status.Reconnecting);
		const exposition = await scrape(metrics);
		const current = (shard: string) =>
			findSamples(exposition, 'adstats_shard_status', { shard })
				.filter((sample) => sample.value === 1)
				.map((sample) => sample.labels.status);
		assert.deepEqual(current('0'), ['ready']);
		assert.deepEqual(current('1'), ['reconnecting']);
		assert.equal(sampleValue(exposition, 'adstats_shard_status', { shard: '1', status: 'ready' }), 0);
	});

	it('names shard statuses in the order of discord.js Status', () => {
		const numbered = Object.entries(Status).filter(([, value]) => typeof value === 'number');
		assert.equal(numbered.length, SHARD_STATUSES.length);
		for (const [name, value] of numbered) {
			const snake = name.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase();
			assert.equal(SHARD_STATUSES[value as number], snake, `Status.${name}`);
		}
	});
});

describe('label values', () => {
	// Casts stand in for what typing forbids: ids and names reaching a label from untyped code.
	const ids = Array.from({ length: 200 }, (_, i) => `${1_200_000_000_000_000_000n + BigInt(i)}`);

	function recordEverywhere(metrics: ReturnType<typeof bare>, value: string, shard: number) {
		metrics.interactions.inc({ command: value as 'stats', outcome: value as InteractionOutcome });
		metrics.ackSeconds.observe({ command: value as 'stats' }, 0.1);
		metrics.replySeconds.observe({ command: value as 'stats' }, 0.1);
		metrics.upstreamRequests.inc({ status_class: value as '2xx' });
		metrics.snapshotCache.inc({ result: value as 'hit' });
		metrics.recordChartRender(value as 'local', value as 'ok', 0.1);
		metrics.storeErrors.inc({ operation: value as 'read' });
		metrics.shardStatus.set(shard, 42 as Status);
	}

	it('record anything outside their set as other', async () => {
		const metrics = bare();
		recordEverywhere(metrics, 'guild-987654321098765432', 2 ** 40);
		const exposition = await scrape(metrics);
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'other', outcome: 'other' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_store_errors_total', { operation: 'other' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_shard_status', { shard: 'other', status: 'other' }), 1);
		assert.ok(!exposition.samples.some((sample) => Object.values(sample.labels).some((v) => v.includes('98765'))));
	});

	it('stay bounded whatever number of distinct values arrives', async () => {
		const once = bare();
		recordEverywhere(once, ids[0]!, 5000);
		const many = bare();
		ids.forEach((id, i) => recordEverywhere(many, id, 5000 + i));
		const keys = (exposition: Exposition) => new Set(exposition.samples.map(seriesKey));
		const seriesOfOne = keys(await scrape(once));
		const seriesOfMany = keys(await scrape(many));
		assert.deepEqual([...seriesOfMany].sort(), [...seriesOfOne].sort());
	});
});

describe('default metrics', () => {
	it('include event-loop delay and can be asked for by several registries in one process', async () => {
		const first = createMetrics({ commands: COMMANDS });
		const second = createMetrics({ commands: COMMANDS, collectDefault: true });
		for (const metrics of [first, second]) {
			const exposition = await scrape(metrics);
			assert.equal(exposition.types.get('nodejs_eventloop_lag_p99_seconds'), 'gauge');
			assert.equal(findSamples(exposition, 'process_cpu_user_seconds_total').length, 1);
		}
		// One event-loop monitor and one GC observer per process, whatever the number of registries.
		const name = 'nodejs_eventloop_lag_p99_seconds';
		assert.equal(first.registry.getSingleMetric(name), second.registry.getSingleMetric(name));
	});

	it('are left out on request', async () => {
		const exposition = await scrape(bare());
		assert.equal(exposition.types.has('nodejs_eventloop_lag_p99_seconds'), false);
		assert.equal(exposition.types.has('process_cpu_user_seconds_total'), false);
	});

	it('carry the default labels like every other series', async () => {
		const metrics = createMetrics({ commands: COMMANDS, defaultLabels: { process: '1' } });
		const exposition = await scrape(metrics);
		assert.ok(exposition.samples.length > 50);
		for (const sample of exposition.samples) assert.equal(sample.labels.process, '1', sample.name);
	});
});
