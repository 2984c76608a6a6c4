import type { Config } from '../config.js';
import type { LinkStore } from '../links/types.js';
import type { Logger } from '../logger.js';
import type { ChartRenderer } from '../render/chart-renderer.js';
import type { StatsResult } from '../stats-api/snapshot.js';
import type { CooldownGate } from './cooldowns.js';

/** The part of the stats client that commands use. */
export interface StatsSource {
	/** Cache, then one shared upstream call; may return a stale snapshot when the endpoint is unreachable. */
	fetchSnapshot(apiKey: string): Promise<StatsResult>;
}

/** Everything a handler may use; built once at start-up and once per test. */
export interface BotContext {
	config: Config;
	links: LinkStore;
	stats: StatsSource;
	renderer: ChartRenderer;
	cooldowns: CooldownGate;
	log: Logger;
}
