import { commandModules } from '../../commands/index.js';
import type { Config } from '../config.js';
import { createHistoryStore, type HistoryStore } from '../history/history-store.js';
import { claimLock, createKeyedMutex, openCoordinator } from '../core/claims.js';
import type { BotContext } from '../discord/context.js';
import { claimCooldowns, Cooldowns } from '../store/cooldowns.js';
import { createLinkStore, verifyWithStats } from '../links/link-store.js';
import type { Logger } from '../logger.js';
import { createMetrics, type StoreOperation } from '../metrics/index.js';
import { startBackgroundJobs } from './background-jobs.js';
import { botGuildApi, createBotRest } from '../discord/bot-rest.js';
import { openRestBudget } from '../discord/rest-budget.js';
import { registerRestBudgetMetrics } from '../metrics/rest-budget-metrics.js';
import { createChartRenderer } from '../render/create-chart-renderer.js';
import { createSettingsStore, SETTINGS_CACHE_TTL_MS } from '../settings/settings-store.js';
import { createStatsClient } from '../stats-api/client.js';
import { openStores } from '../store/open-stores.js';
import { storeSchemeOf } from '../store-url.js';
import { storeOperationOf } from './store-error-kind.js';

/** Recent accounts' history kept by one process on SQLite: a /stats repeated within a minute reads no store. */
const HISTORY_CACHE = { entries: 200, ttlMs: 60_000 };
/** How long one process on its own store (SQLite) keeps a link it read: every /stats reads its member's. */
const LINK_RECORD_CACHE_MS = 60_000;

export interface BotServices {
	ctx: BotContext;
	/** Closes the renderer, the stats client and the store; safe to call twice. */
	close(): Promise<void>;
}

/** Opens the store and builds the context handlers get; the same for every transport. */
export async function openBotServices(
	config: Config,
	log: Logger,
	/**
	 * `namespacePrefix`: prepended to every namespace and claim, so tests can share one Redis or PostgreSQL.
	 * `backgroundJobs: false` starts none (tests that drive a job themselves, on their own clock and settings).
	 */
	options: { now?: () => number; namespacePrefix?: string; backgroundJobs?: boolean } = {},
): Promise<BotServices> {
	const metrics = createMetrics({
		commands: commandModules.map((module) => module.name),
		// Only a served endpoint shows them, and they cost: a timer sampling the event loop every 10 ms, a GC
		// observer, and 25 ms of start-up loading what the process CPU figure needs.
		collectDefault: config.metricsPort !== null,
	});
	const onError = (error: unknown) => {
		log.error({ err: error }, 'storage error');
		metrics.storeErrors.inc({ operation: storeOperationOf(error) as StoreOperation });
	};
	const { namespacePrefix } = options;
	const stores = await openStores(config.storeUrl, { onError, namespacePrefix });
	const coordinator = await openCoordinator(config.storeUrl, { onError, namespacePrefix });
	// Every process and worker on this store spends one budget of bot-token calls per second.
	const restBudget = await openRestBudget(config.storeUrl, {
		perSecond: config.discordRestPerSecond,
		processes: config.botProcesses,
		namespacePrefix,
		onError,
	});
	registerRestBudgetMetrics(metrics.registry);
	// One process owns a SQLite file, so in-process locks and cooldowns are exact there and cost no write.
	const shared = storeSchemeOf(config.storeUrl) !== 'sqlite';
	const withLock = shared ? claimLock(coordinator) : createKeyedMutex();
	const history = createHistoryStore({
		keyv: stores.history,
		withLock,
		historyDays: config.historyDays,
		now: options.now,
		// Only this process writes a SQLite file's history; processes sharing a store read it every time.
		cache: shared ? undefined : HISTORY_CACHE,
	});
	const stats = createStatsClient({
		baseUrl: config.statsApiBaseUrl,
		timeoutMs: config.statsApiTimeoutMs,
		cacheTtlSeconds: config.statsCacheTtlSeconds,
		now: options.now,
		cache: stores.cache,
		cacheSecret: config.linkSecret,
		flights: shared ? coordinator : undefined,
		onFreshSnapshot: (snapshot, fetchedAt) => recordInBackground(history, snapshot, fetchedAt, log),
		onUpstreamResult: (result, seconds) => metrics.recordUpstream(result, seconds),
		onCacheLookup: (result) => metrics.snapshotCache.inc({ result }),
	});
	const links = createLinkStore({
		keyv: stores.links,
		secret: config.linkSecret,
		previousSecret: config.linkSecretPrevious,
		// Feature unavailable is handled by the link store: the key is kept, marked unverified.
		verifyKey: verifyWithStats(stats),
		// Processes sharing a store read each link from it: another may have changed it.
		recordCacheMs: shared ? undefined : LINK_RECORD_CACHE_MS,
	});
	const renderer = createChartRenderer(config.chartRenderer, {
		quickchartUrl: config.quickchartUrl,
		onWorkerError: (error) => log.error({ err: error }, 'chart worker failed'),
		onRender: (name, outcome, seconds) => {
			if (name !== 'none') metrics.recordChartRender(name, outcome, seconds);
		},
	});
	const ctx: BotContext = {
		config,
		links,
		stats,
		renderer,
		history,
		coordinator,
		stores,
		cooldowns: shared
			? claimCooldowns(coordinator, config.statsCooldownSeconds)
			: new Cooldowns(config.statsCooldownSeconds),
		settings: createSettingsStore({
			keyv: stores.settings,
			withLock,
			cacheTtlMs: shared ? SETTINGS_CACHE_TTL_MS.shared : SETTINGS_CACHE_TTL_MS.oneProcess,
		}),
		guildApi: botGuildApi(createBotRest(config, restBudget)),
		log,
		metrics,
		now: options.now,
	};
	// Reports and the sampler run in every process and transport: claims in the store make each post and
	// each daily sample happen once in total, and posting needs only the bot token's REST access.
	const jobs = options.backgroundJobs === false ? { stop: async () => undefined } : startBackgroundJobs(ctx);
	let closing: Promise<void> | null = null;
	return {
		ctx,
		close: () => {
			closing ??= (async () => {
				await jobs.stop();
				await renderer.close();
				await stats.close();
				await coordinator.close();
				await restBudget.close();
				await stores.close();
			})();
			return closing;
		},
	};
}

/** History is kept on the side: a store hiccup there must not cost the member the reply. */
function recordInBackground(
	history: HistoryStore,
	snapshot: Parameters<HistoryStore['record']>[0],
	receivedAt: number,
	log: Logger,
): void {
	history.record(snapshot, receivedAt).catch((error: unknown) => log.warn({ err: error }, 'history not recorded'));
}
