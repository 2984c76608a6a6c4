export { aggregateSnapshots, metricsSnapshot, type MetricsSnapshot } from './aggregate.js';
export { checkHealth, PROBE_DEADLINE_MS, type HealthCheck, type HealthProbe, type HealthReport } from './health.js';
export * from './labels.js';
export { createMetrics, type Metrics, type MetricsOptions } from './metrics.js';
export { startMetricsServer, type MetricsServerOptions, type RunningMetricsServer } from './server.js';
