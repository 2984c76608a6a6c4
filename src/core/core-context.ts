import type { Config } from '../config.js';
import type { GuildApi } from '../guild-api.js';
import type { HistoryStore } from '../history/history-store.js';
import type { LinkStore } from '../links/link-model.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/index.js';
import type { ChartRenderer } from '../render/chart-renderer.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { StatsSource } from '../stats-api/client.js';
import type { Coordinator } from './claims.js';
import type { CooldownGate } from '../store/cooldowns.js';
import type { Stores } from '../store/open-stores.js';

/**
 * The core's services, as both front ends hold them: the bot's handlers (as BotContext) and the
 * dashboard's routes call the core actions with it. Built once at start-up and once per test.
 */
export interface CoreContext {
	config: Config;
	links: LinkStore;
	stats: StatsSource;
	renderer: ChartRenderer;
	/** Each account's daily history (sends, joins, failed sends), kept by the bot. */
	history: HistoryStore;
	/** Claims on the shared store: locks, once-only gates and cooldowns across processes. */
	coordinator: Coordinator;
	/** The store's namespaces, for the features that keep their own records (reports, settings, watch). */
	stores: Stores;
	/** Per-member cooldowns (STATS_COOLDOWN_SECONDS), shared by every process on a shared store. */
	cooldowns: CooldownGate;
	/** Each server's `/settings`: access rules, defaults, language, audit channel. */
	settings: SettingsStore;
	/** The bot token's REST calls outside interactions: audit lines, channels, permissions, renames. */
	guildApi: GuildApi;
	log: Logger;
	/** Prometheus instruments; every label comes from a fixed set, never an id, key or name. */
	metrics: Metrics;
	/** The bot's clock, epoch ms: decides which UTC day is today. Tests pin it; absent, Date.now. */
	now?: () => number;
}
