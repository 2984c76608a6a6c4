import { Events, type Client } from 'discord.js';
import type { DestinationStream } from 'pino';
import { commandModules } from '../../commands/index.js';
import type { Config } from '../config.js';
import { createLinkStore, openStores, verifyWithStats } from '../links/index.js';
import { createChartRenderer } from '../render/chart-output.js';
import { createStatsClient } from '../stats-api/index.js';
import { createDiscordClient } from './client.js';
import type { BotContext } from './context.js';
import { Cooldowns } from './cooldowns.js';
import { watchDiscordRefusals } from './discord-refusals.js';
import { createLogger } from './logger.js';
import { createRouter, type InteractionRouter } from './router.js';

/** Replies in flight get this long to finish on shutdown; Discord's 3 s window is long gone after it. */
const DRAIN_TIMEOUT_MS = 10_000;
/** discord.js itself gives up waiting for guilds after 15 s and becomes ready anyway. */
const READY_TIMEOUT_MS = 60_000;

export interface RunningBot {
	client: Client;
	ctx: BotContext;
	router: InteractionRouter;
	/** Stops taking interactions, finishes replies in flight, closes Discord and the store. */
	stop(): Promise<void>;
}

/** Builds the context, logs in and resolves once the client is ready. */
export async function startBot(
	config: Config,
	options: { logDestination?: DestinationStream } = {},
): Promise<RunningBot> {
	const log = createLogger(config.logLevel, options.logDestination);
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
	const router = createRouter(commandModules, ctx);
	const client = createDiscordClient({ apiUrl: config.discordApiUrl });
	client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
	watchDiscordRefusals(client, log);
	client.on(Events.Error, (error) => log.error({ err: error }, 'discord client error'));
	client.on(Events.ShardDisconnect, (event, shardId) =>
		log.warn({ code: event.code, shardId }, 'gateway disconnected'),
	);
	client.on(Events.ShardResume, (shardId) => log.info({ shardId }, 'gateway resumed'));

	const ready = new Promise<void>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`Discord did not send READY within ${READY_TIMEOUT_MS / 1000} s`)),
			READY_TIMEOUT_MS,
		);
		client.once(Events.ClientReady, () => {
			clearTimeout(timer);
			resolve();
		});
	});
	ready.catch(() => undefined); // a failed login rejects first; this one is awaited below
	try {
		await client.login(config.discordToken);
		await ready;
	} catch (error) {
		await client.destroy();
		await stats.close();
		await stores.close();
		throw error;
	}
	log.info({ guilds: client.guilds.cache.size, user: client.user?.tag }, 'bot ready');

	let stopping: Promise<void> | null = null;
	const stop = () => {
		stopping ??= (async () => {
			log.info({ inFlight: router.inFlight }, 'shutting down: finishing replies in flight');
			await router.drain(DRAIN_TIMEOUT_MS);
			await client.destroy();
			await stats.close();
			await stores.close();
			log.info('stopped');
		})();
		return stopping;
	};
	return { client, ctx, router, stop };
}
