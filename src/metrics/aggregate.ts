// With discord.js's ShardingManager every child process counts on its own. Serving one child's registry, or each
// in turn, interleaves independent counters in one series, which Prometheus reads as resets. Instead each child
// sends a snapshot over IPC and the manager serves their aggregate (prom-client's clusterMetrics() only reaches
// node:cluster workers, never ShardingManager children).
import { AggregatorRegistry, type Registry } from 'prom-client';

/** A registry's metrics as plain JSON, fit to cross a process boundary. */
export type MetricsSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

export async function metricsSnapshot(metrics: { registry: Registry }): Promise<MetricsSnapshot> {
	return metrics.registry.getMetricsAsJSON();
}

/**
 * One registry holding the sum of the snapshots' counters and histograms; series with equal labels merge, so
 * processes must not carry a label of their own unless separate series are wanted.
 */
export function aggregateSnapshots(snapshots: readonly MetricsSnapshot[]): Registry {
	return AggregatorRegistry.aggregate(snapshots as MetricsSnapshot[]);
}
