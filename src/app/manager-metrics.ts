// BOT_PROCESSES above 1: the supervising process serves, on METRICS_PORT, the sum of every bot process's
// metrics, asked of each child over its IPC channel at every scrape; each child still serves its own on
// METRICS_PORT + 1 + i.
import type { Shard, ShardingManager } from 'discord.js';
import { Gauge } from 'prom-client';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import {
	aggregateSnapshots,
	collectSnapshots,
	METRIC_PREFIX,
	startMetricsServer,
	type HealthReport,
	type RunningMetricsServer,
} from '../metrics/index.js';

/** The port a managed child (index `index`) serves its own metrics on; METRICS_PORT itself is the sum's. */
export function childMetricsPort(metricsPort: number, index: number): number {
	return metricsPort === 0 ? 0 : metricsPort + 1 + index;
}

/** Serves the children's sum when METRICS_PORT is set; null (nothing started) when it is not. */
export async function startManagerMetrics(options: {
	config: Pick<Config, 'metricsPort' | 'metricsHost'>;
	manager: ShardingManager;
	log: Logger;
	/** How long a scrape waits for a child's snapshot (default: the IPC helpers' own). */
	snapshotDeadlineMs?: number;
}): Promise<RunningMetricsServer | null> {
	const { config, manager, log } = options;
	if (config.metricsPort === null) return null;
	const children = () => [...manager.shards.values()];
	const server = await startMetricsServer({
		host: config.metricsHost,
		port: config.metricsPort,
		metrics: async () => {
			const { snapshots, missing } = await collectSnapshots(children(), options.snapshotDeadlineMs);
			const registry = aggregateSnapshots(snapshots);
			// Without it, a child that did not answer (respawning, hung) would only show as counters that dropped.
			new Gauge({
				name: `${METRIC_PREFIX}bot_processes_unanswered`,
				help: 'Bot processes whose metrics are missing from this sum: they did not answer the manager in time',
				registers: [registry],
			}).set(missing);
			new Gauge({
				name: `${METRIC_PREFIX}bot_processes`,
				help: 'Bot processes the manager runs (BOT_PROCESSES)',
				registers: [registry],
			}).set(children().length);
			return registry;
		},
		health: async () => processesHealth(children()),
		onError: (error) => log.warn({ err: error }, 'metrics endpoint failed to answer'),
	});
	log.info({ url: server.url }, 'metrics and health endpoints listening (the sum of every bot process)');
	return server;
}

/** Ready when every child process runs and its client reported ready; each child's /healthz says more. */
function processesHealth(children: readonly Shard[]): HealthReport {
	const checks = children.map((child) => {
		const running = child.process !== null && child.process.exitCode === null && child.process.signalCode === null;
		const ok = running && child.ready;
		return { name: `process ${child.id}`, ok, ...(ok ? {} : { detail: running ? 'not ready' : 'not running' }) };
	});
	return { ready: checks.length > 0 && checks.every((check) => check.ok), checks };
}
