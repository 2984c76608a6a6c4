import { API } from '../discord/core-api.js';
import { createInteractionRest } from '../discord/bot-rest.js';
import type { Client } from 'discord.js';
import type { DestinationStream } from 'pino';
import { commandModules } from '../../commands/index.js';
import { isManagedChild, type Config } from '../config.js';
import type { RunningMetricsServer } from '../metrics/index.js';
import type { BotContext } from '../discord/context.js';
import { createRouter, type InteractionRouter } from '../discord/router.js';
import { createLogger, type Logger } from '../logger.js';
import type { GatewayShards } from '../discord/client.js';
import { watchRestRefusals } from '../discord/discord-refusals.js';
import { onGuildResourceDeleted } from '../settings/deleted-resources.js';
import { deletedResourceOf } from '../discord/gateway.js';
import { connectGateway } from '../discord/gateway.js';
import { startInteractionsServer, type InteractionsServer } from '../discord/interactions-server.js';
import { listenerProbe, recordShardStatus, shardsProbe, startBotMetrics, storeProbe } from './metrics-endpoint.js';
import { childMetricsPort } from './manager-metrics.js';
import { answerSnapshotRequests } from '../metrics/index.js';
import { openBotServices, type BotServices } from './services.js';
import type { RunningWebServer } from '../web/server.js';
import { preloadLazyPackages } from '../lazy-packages.js';
import { resolveShardCount } from '../discord/shard-plan.js';
import { guildPresenceWatcher } from '../discord/guild-presence.js';
import { guildPresenceHandlers } from './left-servers.js';

/** Replies in flight get this long to finish on shutdown; Discord's 3 s window is long gone after it. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface RunningBot {
	/** The gateway client; null in HTTP interactions mode, which opens no gateway connection. */
	client: Client | null;
	/** `http://host:port/interactions` in HTTP interactions mode, else null. */
	interactionsUrl: string | null;
	ctx: BotContext;
	router: InteractionRouter;
	/** Settles once the chart renderer has warmed up after READY (at once when it has nothing to prepare). */
	chartsWarmedUp: Promise<void>;
	/** Where /metrics, /healthz and /livez answer; null without METRICS_PORT. */
	metricsUrl: string | null;
	/** Where the dashboard listens (WEB_PORT); null without it. */
	webUrl: string | null;
	/** Stops taking interactions, finishes replies in flight, closes Discord and the store. */
	stop(): Promise<void>;
}

export interface StartOptions {
	logDestination?: DestinationStream;
	/** The shards of this process; default: assigned by a ShardingManager, else all of SHARD_COUNT. */
	shards?: GatewayShards;
	/** HTTP mode: how long a handler may stay silent before a private defer goes out for it. */
	autoDeferMs?: number;
	/** The bot's clock, epoch ms: which UTC day is today and how old a cached snapshot is; tests and the demo pin it. */
	now?: () => number;
}

/** Builds the context and starts the transport: HTTP interactions when INTERACTIONS_PORT is set, else the gateway. */
export async function startBot(config: Config, options: StartOptions = {}): Promise<RunningBot> {
	const baseLog = createLogger(config.logLevel, options.logDestination);
	if (config.interactionsPort !== null) return startHttpBot(config, baseLog, options);

	const shards = options.shards ?? (await planShards(config));
	// Every line of this process names its shards, the services' included.
	const log = baseLog.child({ shards: shards.ids });
	const { services, router, client } = await openWhileLoggingIn(config, shards, log, options);
	log.info({ guilds: client.guilds.cache.size, user: client.user?.tag, shardCount: shards.total }, 'bot ready');
	const { ctx } = services;
	const chartsWarmedUp = warmUpCharts(ctx);
	watchRestRefusals(client.rest, { onStatus: (status) => ctx.metrics.recordDiscordRestResponse(status) });
	// The manager's METRICS_PORT sums every child: it asks each for a snapshot over the IPC channel.
	const stopAnswering =
		isManagedChild(config) && config.metricsPort !== null
			? answerSnapshotRequests(ctx.metrics, process, () => recordShardStatus(ctx.metrics, client))
			: () => undefined;
	const metricsServer = await startBotMetrics({
		config: metricsConfig(config),
		metrics: ctx.metrics,
		health: { store: storeProbe(ctx.stores), gateway: shardsProbe(client) },
		beforeScrape: () => recordShardStatus(ctx.metrics, client),
		log,
	}).catch(async (error: unknown) => {
		await client.destroy();
		await services.close();
		throw error;
	});
	const webServer = await startDashboardIfAsked(config, ctx, log).catch(async (error: unknown) => {
		await metricsServer?.close();
		await client.destroy();
		await services.close();
		throw error;
	});
	return running(
		{ client, interactionsUrl: null, metricsServer, webServer, services, router, log, chartsWarmedUp },
		async () => {
			stopAnswering();
			await client.destroy();
		},
	);
}

/**
 * Opens the store and logs in to the gateway at once: both wait on I/O most of the time, so start-up costs the
 * longer of the two, not their sum. No interaction arrives before READY; one that arrives between READY and the
 * store being open waits for it. Either failing undoes the other: a store that fails stops the login at once.
 */
async function openWhileLoggingIn(
	config: Config,
	shards: GatewayShards,
	log: Logger,
	options: StartOptions,
): Promise<{ services: BotServices; router: InteractionRouter; client: Client }> {
	const opening = openBotServices(config, log, { now: options.now }).then((services) => ({
		services,
		router: createRouter(commandModules, services.ctx),
	}));
	let opened: { services: BotServices; router: InteractionRouter } | null = null;
	const storeFailed = new AbortController();
	opening.then(
		(value) => (opened = value),
		(error: unknown) => storeFailed.abort(error),
	);
	const whenOpen = (use: (value: { services: BotServices; router: InteractionRouter }) => Promise<void>) =>
		opened ? use(opened) : opening.then(use, () => undefined);
	// Servers the bot was removed from, added back to, or that a shard's READY no longer lists.
	let presenceHandlers: ReturnType<typeof guildPresenceHandlers> | null = null;
	const presenceOf = ({ services }: { services: BotServices }) =>
		(presenceHandlers ??= guildPresenceHandlers(services.ctx));
	const onPresence = guildPresenceWatcher(
		{
			removed: (guildId) => void whenOpen(async (opened) => presenceOf(opened).removed(guildId)),
			added: (guildId) => void whenOpen(async (opened) => presenceOf(opened).added(guildId)),
			ready: (ready) => void whenOpen(async (opened) => presenceOf(opened).ready(ready)),
		},
		shards.total,
	);
	const connecting = connectGateway({
		apiUrl: config.discordApiUrl,
		token: config.discordToken,
		shards,
		router: { handle: (interaction) => whenOpen(({ router }) => router.handle(interaction)) },
		log,
		signal: storeFailed.signal,
		onDispatch: (packet, shardId) => {
			onPresence(packet, shardId);
			// A deleted role or channel that a server setting names falls back to the default.
			const deleted = deletedResourceOf(packet);
			if (deleted) void whenOpen(({ services }) => onGuildResourceDeleted(services.ctx, deleted));
		},
	});
	const [services, client] = await Promise.allSettled([opening, connecting]);
	if (services.status === 'fulfilled' && client.status === 'fulfilled')
		return { ...services.value, client: client.value };
	if (client.status === 'fulfilled') await client.value.destroy();
	if (services.status === 'fulfilled') await services.value.services.close();
	throw services.status === 'rejected' ? services.reason : (client as PromiseRejectedResult).reason;
}

async function startHttpBot(config: Config, log: Logger, options: StartOptions): Promise<RunningBot> {
	if (!config.discordPublicKey) throw new Error('DISCORD_PUBLIC_KEY is required with INTERACTIONS_PORT');
	const httpLog = log.child({ transport: 'http' });
	const services = await openBotServices(config, httpLog, { now: options.now });
	const { ctx } = services;
	const router = createRouter(commandModules, ctx);
	const rest = createInteractionRest(config);
	watchRestRefusals(rest, { onStatus: (status) => ctx.metrics.recordDiscordRestResponse(status) });
	let server: InteractionsServer | undefined;
	let metricsServer: RunningMetricsServer | null;
	let webServer: RunningWebServer | null;
	try {
		server = await startInteractionsServer({
			host: config.interactionsHost,
			port: config.interactionsPort ?? 0,
			publicKey: config.discordPublicKey,
			api: new API(rest),
			router,
			log: httpLog,
			autoDeferMs: options.autoDeferMs,
		});
		metricsServer = await startBotMetrics({
			config,
			metrics: ctx.metrics,
			health: { store: storeProbe(ctx.stores), interactions: listenerProbe(server.url) },
			log: httpLog,
		}).catch(async (error: unknown) => {
			await server?.close(async () => undefined);
			throw error;
		});
		webServer = await startDashboardIfAsked(config, ctx, httpLog).catch(async (error: unknown) => {
			await metricsServer?.close();
			await server?.close(async () => undefined);
			throw error;
		});
	} catch (error) {
		await services.close();
		throw error;
	}
	httpLog.info({ url: server.url }, 'bot ready');
	const chartsWarmedUp = warmUpCharts(ctx);
	return running(
		{
			client: null,
			interactionsUrl: server.url,
			metricsServer,
			webServer,
			services,
			router,
			log: httpLog,
			chartsWarmedUp,
		},
		async () => undefined,
		(drain) => server.close(drain),
	);
}

/**
 * Once ready, what start-up left for later is loaded: the validators (zod), and the chart worker loads Chart.js,
 * the canvas and the fonts and draws its warm-up charts, so the first member's chart is as fast as the tenth.
 * After READY, not before: start-up does not wait for it.
 */
function warmUpCharts(ctx: BotContext): Promise<void> {
	setImmediate(preloadLazyPackages);
	return ctx.renderer.warmUp?.() ?? Promise.resolve();
}

/** One stop for both transports: no new work, replies in flight finished, transport and store closed. */
function running(
	parts: {
		client: Client | null;
		interactionsUrl: string | null;
		metricsServer: RunningMetricsServer | null;
		webServer: RunningWebServer | null;
		services: BotServices;
		router: InteractionRouter;
		log: Logger;
		chartsWarmedUp: Promise<void>;
	},
	closeTransport: () => Promise<void>,
	drainWith: (drain: () => Promise<void>) => Promise<void> = (drain) => drain(),
): RunningBot {
	const { services, router, log } = parts;
	let stopping: Promise<void> | null = null;
	const stop = () => {
		stopping ??= (async () => {
			log.info({ inFlight: router.inFlight }, 'shutting down: finishing replies in flight');
			await parts.metricsServer?.close();
			await parts.webServer?.close();
			await drainWith(() => router.drain(DRAIN_TIMEOUT_MS));
			await closeTransport();
			await services.close();
			log.info('stopped');
		})();
		return stopping;
	};
	return {
		client: parts.client,
		interactionsUrl: parts.interactionsUrl,
		metricsUrl: parts.metricsServer?.url ?? null,
		webUrl: parts.webServer?.url ?? null,
		ctx: services.ctx,
		router,
		chartsWarmedUp: parts.chartsWarmedUp,
		stop,
	};
}

/** A ShardingManager's child serves its own metrics on METRICS_PORT + 1 + i; the manager serves the sum. */
function metricsConfig(config: Config): Config {
	if (config.metricsPort === null || !isManagedChild(config)) return config;
	return { ...config, metricsPort: childMetricsPort(config.metricsPort, config.managedChild.index) };
}

/** This process's shards: those a ShardingManager handed it, or every shard (internal sharding). */
export async function planShards(config: Config): Promise<GatewayShards> {
	const total = await resolveShardCount(config);
	const ids = config.managedChild?.shards ?? Array.from({ length: total }, (_, id) => id);
	return { ids, total };
}

/**
 * The dashboard, and the web framework under it, load only when WEB_PORT asks for them: most bots never start it,
 * and every module loaded before READY is start-up time.
 */
async function startDashboardIfAsked(config: Config, ctx: BotContext, log: Logger): Promise<RunningWebServer | null> {
	if (config.webPort === null) return null;
	return (await import('./start-web.js')).startDashboard(config, ctx, log);
}
