import type { Config } from '../config.js';
import { Cooldowns } from '../interactions/cooldowns.js';
import type { BotContext } from '../interactions/context.js';
import { createLinkStore, openStores, verifyWithStats } from '../links/index.js';
import type { Logger } from '../logger.js';
import { createChartRenderer } from '../render/chart-output.js';
import { createStatsClient } from '../stats-api/index.js';

export interface BotServices {
	ctx: BotContext;
	/** Closes the stats client and the store; safe to call twice. */
	close(): Promise<void>;
}

/** Opens the store and builds the context handlers get; the same for every transport. */
export async function openBotServices(config: Config, log: Logger): Promise<BotServices> {
	const stores = await openStores(config.storeUrl, {
		onError: (error) => log.error({ err: error }, 'storage error'),
	});
	const stats = createStatsClient({
		baseUrl: config.statsApiBaseUrl,
		timeoutMs: config.statsApiTimeoutMs,
		cacheTtlSeconds: config.statsCacheTtlSeconds,
		cache: stores.cache,
		cacheSecret: config.linkSecret,
	});
	const links = createLinkStore({
		keyv: stores.links,
		secret: config.linkSecret,
		previousSecret: config.linkSecretPrevious,
		// Feature unavailable is handled by the link store: the key is kept, marked unverified.
		verifyKey: verifyWithStats(stats),
	});
	const ctx: BotContext = {
		config,
		links,
		stats,
		renderer: createChartRenderer(config.chartRenderer, { quickchartUrl: config.quickchartUrl }),
		cooldowns: new Cooldowns(config.statsCooldownSeconds),
		log,
	};
	let closing: Promise<void> | null = null;
	return {
		ctx,
		close: () => {
			closing ??= (async () => {
				await stats.close();
				await stores.close();
			})();
			return closing;
		},
	};
}
