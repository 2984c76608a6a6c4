import type { DeletedResource } from '../settings/settings-store.js';
import { API } from './core-api.js';
import { Events, GatewayDispatchEvents, type APIInteraction, type Client } from 'discord.js';
import { fromRawInteraction } from './raw-interaction.js';
import { restResponder } from './responder.js';
import type { InteractionRouter } from './router.js';
import type { Logger } from '../logger.js';
import { createDiscordClient, type GatewayShards } from './client.js';
import { watchDiscordRefusals } from './discord-refusals.js';

/** discord.js itself gives up waiting for guilds after 15 s and becomes ready anyway. */
const READY_TIMEOUT_MS = 60_000;

/**
 * Gateway transport: discord.js keeps the connection; interactions are taken from the raw dispatch
 * and answered over REST, so handlers see the same payload as in HTTP mode.
 */
export async function connectGateway(options: {
	apiUrl: string;
	token: string;
	shards: GatewayShards;
	router: Pick<InteractionRouter, 'handle'>;
	log: Logger;
	/** Aborted: the login stops and this rejects with the signal's reason. */
	signal?: AbortSignal;
	/** Other dispatches the bot acts on (a role or channel deleted). */
	onDispatch?: (packet: { t?: string; d?: unknown }, shardId: number) => void;
}): Promise<Client> {
	const { router, log } = options;
	const client = createDiscordClient({ apiUrl: options.apiUrl, shards: options.shards });
	const responder = restResponder(new API(client.rest));
	client.on(Events.Raw, (packet: { t?: string; d?: unknown }, shardId: number) => {
		if (packet.t !== GatewayDispatchEvents.InteractionCreate) {
			options.onDispatch?.(packet, shardId);
			return;
		}
		const interaction = fromRawInteraction(packet.d as APIInteraction, responder);
		if (interaction) void router.handle(interaction);
	});
	watchDiscordRefusals(client, log);
	client.on(Events.Error, (error) => log.error({ err: error }, 'discord client error'));
	client.on(Events.ShardDisconnect, (event, shardId) =>
		log.warn({ code: event.code, shardId }, 'gateway disconnected'),
	);
	client.on(Events.ShardResume, (shardId) => log.info({ shardId }, 'gateway resumed'));
	client.on(Events.ShardReady, (shardId) => log.info({ shardId }, 'shard ready'));

	// A timer of its own would outlive a failed login by a minute; AbortSignal.timeout's never holds the process.
	const readyDeadline = AbortSignal.timeout(READY_TIMEOUT_MS);
	const stop = options.signal ? AbortSignal.any([options.signal, readyDeadline]) : readyDeadline;
	const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
	const loggedIn = Promise.all([client.login(options.token), ready]);
	// Once the race below is settled, a later rejection of the login is expected, not unhandled.
	loggedIn.catch(() => undefined);
	try {
		await Promise.race([loggedIn, rejectOnAbort(stop)]);
	} catch (error) {
		await client.destroy();
		if (readyDeadline.aborted && !options.signal?.aborted) {
			throw new Error(`Discord did not send READY within ${READY_TIMEOUT_MS / 1000} s`);
		}
		throw error;
	}
	return client;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
	if (signal.aborted) return Promise.reject(signal.reason);
	return new Promise((_resolve, reject) =>
		signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
	);
}

/** The resource a raw gateway dispatch deletes, or null for any other event. */
export function deletedResourceOf(packet: { t?: string | null; d?: unknown }): DeletedResource | null {
	const data = (packet.d ?? {}) as { guild_id?: unknown; role_id?: unknown; id?: unknown };
	if (typeof data.guild_id !== 'string') return null;
	if (packet.t === 'GUILD_ROLE_DELETE' && typeof data.role_id === 'string') {
		return { guildId: data.guild_id, roleId: data.role_id };
	}
	if (packet.t === 'CHANNEL_DELETE' && typeof data.id === 'string') {
		return { guildId: data.guild_id, channelId: data.id };
	}
	return null;
}
