import type { Client } from 'discord.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import {
	checkHealth,
	checkShards,
	startMetricsServer,
	type HealthProbe,
	type Metrics,
	type RunningMetricsServer,
	type ShardState,
} from '../metrics/index.js';
import type { Stores } from '../store/open-stores.js';

// Never stored: reading a key that does not exist still makes the store answer a query.
const PROBE_KEY = 'health-probe';

export interface BotMetricsOptions {
	config: Pick<Config, 'metricsPort' | 'metricsHost'>;
	metrics: Metrics;
	/** Readiness checks by name, e.g. `{ store: storeProbe(stores), gateway: shardsProbe(client) }`. */
	health: Record<string, HealthProbe>;
	/** Runs before each scrape, to bring gauges read from elsewhere up to date (the shards' status). */
	beforeScrape?: () => void;
	log?: Logger;
}

/** Serves /metrics, /healthz and /livez when METRICS_PORT is set; null (nothing started) when it is not. */
export async function startBotMetrics(options: BotMetricsOptions): Promise<RunningMetricsServer | null> {
	const { config, metrics, health, beforeScrape, log } = options;
	if (config.metricsPort === null) return null;
	const server = await startMetricsServer({
		host: config.metricsHost,
		port: config.metricsPort,
		metrics: async () => {
			beforeScrape?.();
			return metrics.registry;
		},
		health: () => checkHealth(health),
		onError: (error) => log?.warn({ err: error }, 'metrics endpoint failed to answer'),
	});
	log?.info({ url: server.url }, 'metrics and health endpoints listening');
	return server;
}

/** The store answers a read within the probe's deadline (a missing key still costs a real query). */
export function storeProbe(stores: Pick<Stores, 'links'>): HealthProbe {
	return async () => {
		await stores.links.get(PROBE_KEY);
		return true;
	};
}

/**
 * HTTP mode's counterpart of the gateway probe: the interactions endpoint answers a request on its own address (a
 * GET gets 405, which proves the listener takes connections and serves). Discord stops sending to an endpoint that
 * does not answer, so a bot whose listener is gone is not ready whatever its store says.
 */
export function listenerProbe(url: string): HealthProbe {
	return async (signal) => {
		const answer = await fetch(url, { signal });
		await answer.body?.cancel();
		return { ok: answer.status < 500, detail: `answers ${answer.status}` };
	};
}

/** Plain data about the gateway client's shards in this process. */
export function shardStates(client: Client): ShardState[] {
	return [...client.ws.shards.values()].map((shard) => ({
		id: shard.id,
		status: shard.status,
		lastHeartbeatAckAt: shard.lastPingTimestamp > 0 ? shard.lastPingTimestamp : null,
	}));
}

/** Every shard of this process Ready with a recent heartbeat ACK. */
export function shardsProbe(client: Client): HealthProbe {
	return async () => checkShards(shardStates(client));
}

/** Sets the shard status gauge from the client; meant as `beforeScrape`. */
export function recordShardStatus(metrics: Pick<Metrics, 'shardStatus'>, client: Client): void {
	for (const shard of shardStates(client)) metrics.shardStatus.set(shard.id, shard.status);
}
