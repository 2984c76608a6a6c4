import { API } from '@discordjs/core/http-only';
import { DiscordAPIError, REST } from '@discordjs/rest';
import type { MessagePayload } from '../discord/interaction.js';

/** What Discord says of a role or channel a setting points at; `unknown` when it could not be asked. */
export type ResourceState = 'exists' | 'deleted' | 'unknown';

/** The few REST calls the settings make with the bot's token, outside any interaction. */
export interface GuildApi {
	/** A message from the bot in a channel; it mentions nobody (an audit line names members without pinging them). */
	postMessage(channelId: string, payload: MessagePayload): Promise<void>;
	roleState(guildId: string, roleId: string): Promise<ResourceState>;
	channelState(guildId: string, channelId: string): Promise<ResourceState>;
}

// Discord's JSON error codes for things that are gone (not a route or permission problem).
const UNKNOWN_CHANNEL = 10003;
const UNKNOWN_GUILD = 10004;

/** Whether an error is Discord saying the channel (or its server) no longer exists. */
export function isGoneChannelError(error: unknown): boolean {
	return (
		error instanceof DiscordAPIError &&
		error.status === 404 &&
		(error.code === UNKNOWN_CHANNEL || error.code === UNKNOWN_GUILD)
	);
}

/** The bot token's REST calls, through @discordjs/rest so Discord's rate limits are honoured. */
export function restGuildApi(options: { apiUrl: string; token: string }): GuildApi {
	const api = new API(new REST({ api: options.apiUrl }).setToken(options.token));
	return {
		async postMessage(channelId, payload) {
			await api.channels.createMessage(channelId, {
				...payload,
				files: payload.files?.map((file) => ({ name: file.name, data: file.data })),
				allowed_mentions: { parse: [] },
			});
		},
		async roleState(guildId, roleId) {
			try {
				const roles = await api.guilds.getRoles(guildId);
				return roles.some((role) => role.id === roleId) ? 'exists' : 'deleted';
			} catch {
				// A route or permission problem says nothing about the role; the gateway's event still will.
				return 'unknown';
			}
		},
		async channelState(guildId, channelId) {
			try {
				const channel = await api.channels.get(channelId);
				return 'guild_id' in channel && channel.guild_id === guildId ? 'exists' : 'deleted';
			} catch (error) {
				return isGoneChannelError(error) ? 'deleted' : 'unknown';
			}
		},
	};
}
