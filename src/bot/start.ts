import type { Client } from 'discord.js';
import type { DestinationStream } from 'pino';
import { commandModules } from '../../commands/index.js';
import type { Config } from '../config.js';
import type { BotContext } from '../interactions/context.js';
import { createRouter, type InteractionRouter } from '../interactions/router.js';
import { createLogger } from '../logger.js';
import { watchRestRefusals } from './discord-refusals.js';
import { connectGateway } from './gateway.js';
import { recordShardStatus, shardsProbe, startBotMetrics, storeProbe } from './metrics-endpoint.js';
import { openBotServices } from './services.js';

/** Replies in flight get this long to finish on shutdown; Discord's 3 s window is long gone after it. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface RunningBot {
	client: Client;
	ctx: BotContext;
	router: InteractionRouter;
	/** Where /metrics, /healthz and /livez answer; null without METRICS_PORT. */
	metricsUrl: string | null;
	/** Stops taking interactions, finishes replies in flight, closes Discord and the store. */
	stop(): Promise<void>;
}

/** Builds the context, logs in and resolves once the client is ready. */
export async function startBot(
	config: Config,
	options: { logDestination?: DestinationStream } = {},
): Promise<RunningBot> {
	const log = createLogger(config.logLevel, options.logDestination);
	const services = await openBotServices(config, log);
	const { ctx } = services;
	const router = createRouter(commandModules, ctx);
	let client: Client;
	try {
		client = await connectGateway({ apiUrl: config.discordApiUrl, token: config.discordToken, router, log });
	} catch (error) {
		await services.close();
		throw error;
	}
	log.info({ guilds: client.guilds.cache.size, user: client.user?.tag }, 'bot ready');
	watchRestRefusals(client.rest, { onStatus: (status) => ctx.metrics.recordDiscordRestResponse(status) });
	const metricsServer = await startBotMetrics({
		config,
		metrics: ctx.metrics,
		health: { store: storeProbe(ctx.stores), gateway: shardsProbe(client) },
		beforeScrape: () => recordShardStatus(ctx.metrics, client),
		log,
	}).catch(async (error: unknown) => {
		await client.destroy();
		await services.close();
		throw error;
	});

	let stopping: Promise<void> | null = null;
	const stop = () => {
		stopping ??= (async () => {
			log.info({ inFlight: router.inFlight }, 'shutting down: finishing replies in flight');
			await metricsServer?.close();
			await router.drain(DRAIN_TIMEOUT_MS);
			await client.destroy();
			await services.close();
			log.info('stopped');
		})();
		return stopping;
	};
	return { client, ctx, router, metricsUrl: metricsServer?.url ?? null, stop };
}
