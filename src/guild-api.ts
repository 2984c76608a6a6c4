import type { ChannelMessage } from './message.js';

/** What Discord says of a role or channel a setting points at; `unknown` when it could not be asked. */
export type ResourceState = 'exists' | 'deleted' | 'unknown';

/**
 * What the core asks of Discord outside any interaction, with the bot's token. The Discord front end
 * implements it (src/discord/bot-rest.ts); tests pass their own.
 */
export interface GuildApi {
	/**
	 * A message from the bot in a channel; it mentions nobody. With a `nonce`, Discord keeps one message
	 * per nonce for a few minutes, so a retry cannot post twice. Rejects with ChannelRefusedError when the
	 * channel is gone or the bot may not post there.
	 */
	postMessage(channelId: string, message: ChannelMessage, options?: { nonce?: string }): Promise<void>;
	roleState(guildId: string, roleId: string): Promise<ResourceState>;
	channelState(guildId: string, channelId: string): Promise<ResourceState>;
	/** The server's name as Discord has it (read once, then cached for a while); null when Discord could not say. */
	guildName(guildId: string): Promise<string | null>;
	/** The channel's state and, when it exists and the bot may see it, its name (without `#`). */
	describeChannel(guildId: string, channelId: string): Promise<ChannelDescription>;
}

export interface ChannelDescription {
	state: ResourceState;
	name: string | null;
}
