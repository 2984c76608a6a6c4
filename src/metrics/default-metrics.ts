import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';

// prom-client's default metrics (CPU, memory, handles, GC, event-loop delay) start a delay monitor and a GC
// observer per call, and a second call on one registry throws. So they are collected once per process into a
// registry of their own, and every registry that wants them shares those same metric objects.
let defaults: Registry | undefined;

/** Adds the process's default metrics to `registry`; collects them on the first call in the process. */
export function registerDefaultMetrics(registry: Registry): void {
	if (!defaults) {
		defaults = new Registry();
		collectDefaultMetrics({ register: defaults });
	}
	for (const metric of defaults.getMetricsAsArray()) registry.registerMetric(metric as unknown as Metric);
}
