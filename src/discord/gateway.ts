import type { DeletedResource } from '../settings/settings-store.js';
import { API } from '@discordjs/core/http-only';
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
	router: InteractionRouter;
	log: Logger;
	/** Other dispatches the bot acts on (a role or channel deleted). */
	onDispatch?: (packet: { t?: string; d?: unknown }) => void;
}): Promise<Client> {
	const { router, log } = options;
	const client = createDiscordClient({ apiUrl: options.apiUrl, shards: options.shards });
	const responder = restResponder(new API(client.rest));
	client.on(Events.Raw, (packet: { t?: string; d?: unknown }) => {
		if (packet.t !== GatewayDispatchEvents.InteractionCreate) {
			options.onDispatch?.(packet);
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
		await client.login(options.token);
		await ready;
	} catch (error) {
		await client.destroy();
		throw error;
	}
	return client;
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
