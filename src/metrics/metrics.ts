import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { registerDefaultMetrics } from './default-metrics.js';
import {
	boundLabel,
	CHART_RENDER_OUTCOMES,
	CHART_RENDERERS,
	DISCORD_INVALID_STATUSES,
	INTERACTION_OUTCOMES,
	OTHER,
	SHARD_STATUSES,
	shardLabel,
	SNAPSHOT_CACHE_RESULTS,
	statusClassOf,
	STORE_OPERATIONS,
	UPSTREAM_STATUS_CLASSES,
	type ChartRendererLabel,
	type ChartRenderOutcome,
	type DiscordInvalidStatus,
	type InteractionOutcome,
	type ShardStatus,
	type SnapshotCacheResult,
	type StoreOperation,
	type UpstreamStatusClass,
	WEBHOOK_FORMAT_LABELS,
	WEBHOOK_OUTCOMES,
	type WebhookFormatLabel,
	type WebhookOutcome,
} from './labels.js';

export const METRIC_PREFIX = 'adstats_';
// Discord drops an interaction not acknowledged within 3 s, so the buckets are fine around that edge.
export const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 3, 5, 10];
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions<C extends string> {
	/** The command names the bot registers; any other name is recorded as `other`. */
	commands: readonly C[];
	/** Default: a new Registry, so two calls (two tests) never share a series. */
	registry?: Registry;
	/** Added to every series, e.g. `{ process: '1' }` in a sharded bot; never an id of a guild, user or channel. */
	defaultLabels?: Record<string, string>;
	/** Include prom-client's process metrics (event-loop delay among them). Default true. */
	collectDefault?: boolean;
}

export interface LabelledCounter<L> {
	inc(labels: L, by?: number): void;
}

export interface LabelledHistogram<L> {
	/** In seconds. */
	observe(labels: L, seconds: number): void;
	/** The returned function records the time since this call and returns it in seconds. */
	startTimer(labels: L): () => number;
}

export interface ShardStatusGauge {
	/** One series per status and shard: 1 for the shard's current status, 0 for the others. */
	set(shard: number, status: ShardStatus): void;
}

export interface Metrics<C extends string = string> {
	readonly registry: Registry;
	readonly interactions: LabelledCounter<{ command: C; outcome: InteractionOutcome }>;
	/** From receiving an interaction to its first response (reply, defer or modal). */
	readonly ackSeconds: LabelledHistogram<{ command: C }>;
	/** From receiving an interaction to its final reply. */
	readonly replySeconds: LabelledHistogram<{ command: C }>;
	readonly upstreamRequests: LabelledCounter<{ status_class: UpstreamStatusClass }>;
	readonly upstreamSeconds: LabelledHistogram<{ status_class: UpstreamStatusClass }>;
	readonly snapshotCache: LabelledCounter<{ result: SnapshotCacheResult }>;
	readonly chartRenders: LabelledCounter<{ renderer: ChartRendererLabel; outcome: ChartRenderOutcome }>;
	readonly chartRenderSeconds: LabelledHistogram<{ renderer: ChartRendererLabel }>;
	readonly storeErrors: LabelledCounter<{ operation: StoreOperation }>;
	readonly discordRestResponses: LabelledCounter<{ status: DiscordInvalidStatus }>;
	/** Outgoing webhook attempts by format and what came of them. */
	readonly webhookDeliveries: LabelledCounter<{ format: WebhookFormatLabel; outcome: WebhookOutcome }>;
	readonly shardStatus: ShardStatusGauge;
	/** One stats request: its HTTP status, or how it failed without one. */
	recordUpstream(result: number | 'network' | 'timeout', seconds: number): void;
	recordChartRender(renderer: ChartRendererLabel, outcome: ChartRenderOutcome, seconds: number): void;
	/** Takes any Discord REST status; counts only the ones that lead to a Cloudflare ban (401, 403, 429). */
	recordDiscordRestResponse(status: number): void;
}

type LabelSets<N extends string> = Record<N, readonly string[]>;
type LabelInput<N extends string> = Record<N, string | number>;

function boundLabels<N extends string>(sets: LabelSets<N>, values: LabelInput<N>): Record<N, string> {
	const bound = {} as Record<N, string>;
	for (const name of Object.keys(sets) as N[]) bound[name] = boundLabel(sets[name], String(values[name]));
	return bound;
}

/**
 * The bounded labels of each input, worked out once: an interaction records three series, and bounding a label
 * walks its fixed set. Inputs outside the sets are bounded each time, never remembered (a flood of unknown
 * command names must not grow the map).
 */
function labelResolver<N extends string>(sets: LabelSets<N>): (values: LabelInput<N>) => Record<N, string> {
	const names = Object.keys(sets) as N[];
	const resolved = new Map<string, Record<N, string>>();
	return (values) => {
		let key = '';
		for (const name of names) key += `${String(values[name])}\u0000`;
		let bound = resolved.get(key);
		if (!bound) {
			bound = boundLabels(sets, values);
			const known = names.every((name) => bound![name] === String(values[name]));
			if (known && resolved.size < MAX_RESOLVED_LABELS) resolved.set(key, bound);
		}
		return bound;
	};
}

const MAX_RESOLVED_LABELS = 1000;

function everyCombination<N extends string>(sets: LabelSets<N>): Record<N, string>[] {
	let combinations: Record<string, string>[] = [{}];
	for (const [name, values] of Object.entries<readonly string[]>(sets)) {
		combinations = combinations.flatMap((partial) => values.map((value) => ({ ...partial, [name]: value })));
	}
	return combinations as Record<N, string>[];
}

function counter<N extends string>(registry: Registry, name: string, help: string, sets: LabelSets<N>) {
	const instrument = new Counter({
		name: METRIC_PREFIX + name,
		help,
		labelNames: Object.keys(sets),
		registers: [registry],
	});
	// Zero series from the start, so a rate() or an alert sees a counter before its first increment.
	for (const labels of everyCombination(sets)) instrument.inc(labels, 0);
	const resolve = labelResolver(sets);
	return {
		inc(labels: LabelInput<N>, by = 1) {
			instrument.inc(resolve(labels), by);
		},
	};
}

function histogram<N extends string>(
	registry: Registry,
	name: string,
	help: string,
	sets: LabelSets<N>,
	buckets: number[],
) {
	const instrument = new Histogram({
		name: METRIC_PREFIX + name,
		help,
		labelNames: Object.keys(sets),
		buckets,
		registers: [registry],
	});
	const resolve = labelResolver(sets);
	return {
		observe(labels: LabelInput<N>, seconds: number) {
			instrument.observe(resolve(labels), seconds);
		},
		startTimer(labels: LabelInput<N>) {
			return instrument.startTimer(resolve(labels));
		},
	};
}

function shardStatusGauge(registry: Registry): ShardStatusGauge {
	const gauge = new Gauge({
		name: `${METRIC_PREFIX}shard_status`,
		help: 'Gateway shard status: 1 for the current status of each shard of this process, 0 for the others.',
		labelNames: ['shard', 'status'],
		registers: [registry],
	});
	return {
		set(shard, status) {
			const current = SHARD_STATUSES[status] ?? OTHER;
			const labelOfShard = shardLabel(shard);
			for (const name of [...SHARD_STATUSES, OTHER]) {
				gauge.set({ shard: labelOfShard, status: name }, name === current ? 1 : 0);
			}
		},
	};
}

/** Instruments of the bot in a registry of their own; every label value is bounded by a fixed set. */
export function createMetrics<C extends string>(options: MetricsOptions<C>): Metrics<C> {
	const registry = options.registry ?? new Registry();
	if (options.defaultLabels) registry.setDefaultLabels(options.defaultLabels);
	if (options.collectDefault ?? true) registerDefaultMetrics(registry);

	const commands = { command: options.commands };
	const statusClasses = { status_class: UPSTREAM_STATUS_CLASSES };
	const renderers = { renderer: CHART_RENDERERS };

	const metrics: Metrics<C> = {
		registry,
		interactions: counter(registry, 'interactions_total', 'Interactions by command and outcome.', {
			...commands,
			outcome: INTERACTION_OUTCOMES,
		}),
		ackSeconds: histogram(
			registry,
			'interaction_ack_seconds',
			'Time from receiving an interaction to its first response.',
			commands,
			ACK_BUCKETS,
		),
		replySeconds: histogram(
			registry,
			'interaction_reply_seconds',
			'Time from receiving an interaction to its final reply.',
			commands,
			ACK_BUCKETS,
		),
		upstreamRequests: counter(
			registry,
			'upstream_requests_total',
			'Requests to the stats endpoint by HTTP status class, network failure or timeout.',
			statusClasses,
		),
		upstreamSeconds: histogram(
			registry,
			'upstream_request_seconds',
			'Latency of requests to the stats endpoint.',
			statusClasses,
			LATENCY_BUCKETS,
		),
		snapshotCache: counter(
			registry,
			'snapshot_cache_lookups_total',
			'Snapshot cache lookups: hit, miss, or stale snapshot served because the endpoint failed.',
			{ result: SNAPSHOT_CACHE_RESULTS },
		),
		chartRenders: counter(registry, 'chart_renders_total', 'Chart renders by renderer and outcome.', {
			...renderers,
			outcome: CHART_RENDER_OUTCOMES,
		}),
		chartRenderSeconds: histogram(
			registry,
			'chart_render_seconds',
			'Time to render a chart, failures included.',
			renderers,
			LATENCY_BUCKETS,
		),
		storeErrors: counter(registry, 'store_errors_total', 'Failed store operations by kind.', {
			operation: STORE_OPERATIONS,
		}),
		discordRestResponses: counter(
			registry,
			'discord_rest_invalid_responses_total',
			'Discord REST responses 401, 403 and 429; Cloudflare bans the IP at 10,000 of them in 10 minutes.',
			{ status: DISCORD_INVALID_STATUSES.map(String) },
		),
		webhookDeliveries: counter(
			registry,
			'webhook_deliveries_total',
			'Outgoing webhook attempts by format: delivered, failed (retried later) or disabled (gone, or retries spent).',
			{ format: WEBHOOK_FORMAT_LABELS, outcome: WEBHOOK_OUTCOMES },
		),
		shardStatus: shardStatusGauge(registry),
		recordUpstream(result, seconds) {
			const labels = { status_class: typeof result === 'number' ? statusClassOf(result) : result };
			metrics.upstreamRequests.inc(labels);
			metrics.upstreamSeconds.observe(labels, seconds);
		},
		recordChartRender(renderer, outcome, seconds) {
			metrics.chartRenders.inc({ renderer, outcome });
			metrics.chartRenderSeconds.observe({ renderer }, seconds);
		},
		recordDiscordRestResponse(status) {
			if ((DISCORD_INVALID_STATUSES as readonly number[]).includes(status)) {
				metrics.discordRestResponses.inc({ status: status as DiscordInvalidStatus });
			}
		},
	};
	return metrics;
}
