export { aggregateSnapshots, metricsSnapshot, type MetricsSnapshot } from './aggregate.js';

export { checkHealth, PROBE_DEADLINE_MS, type HealthCheck, type HealthProbe, type HealthReport } from './health.js';

export * from './labels.js';

export { createMetrics, METRIC_PREFIX, type Metrics, type MetricsOptions } from './metrics.js';

export { startMetricsServer, type MetricsServerOptions, type RunningMetricsServer } from './server.js';

export { checkShards, MAX_HEARTBEAT_AGE_MS, type ShardState } from './gateway-health.js';

export {
	answerSnapshotRequests,
	collectSnapshots,
	SNAPSHOT_DEADLINE_MS,
	type IpcParent,
	type IpcPeer,
} from './ipc-snapshots.js';
