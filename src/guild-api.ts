import { ChannelRefusedError } from './errors.js';
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
	/**
	 * Posts as postMessage does and returns the new message's id, for a message the bot edits later. With a
	 * `nonce`, Discord answers a repeat within a few minutes with the earlier message instead of a second one.
	 */
	createMessage(channelId: string, message: ChannelMessage, options?: { nonce?: string }): Promise<string>;
	/**
	 * Replaces the bot's message: its text, embeds and files (only `message.files` stay attached). Rejects with
	 * MessageGoneError when the message was deleted, ChannelRefusedError when the channel is gone or refuses.
	 */
	editMessage(channelId: string, messageId: string, message: ChannelMessage): Promise<void>;
	/**
	 * Whether the bot's message is still there. Rejects with ChannelRefusedError when the channel is gone or the bot
	 * may not read it back (no View Channel or no Read Message History).
	 */
	messageState(channelId: string, messageId: string): Promise<ResourceState>;
	/**
	 * A direct message to a member: opens (or reuses) the DM channel, then posts as postMessage does. Rejects with
	 * DirectMessagesClosedError when Discord refuses (50007), which no retry changes.
	 */
	sendDirectMessage(userId: string, message: ChannelMessage, options?: { nonce?: string }): Promise<void>;
	roleState(guildId: string, roleId: string): Promise<ResourceState>;
	/** The role's state and, when it exists, whether it is a bot's or an integration's own (nobody can be given it). */
	describeRole(guildId: string, roleId: string): Promise<RoleDescription>;
	channelState(guildId: string, channelId: string): Promise<ResourceState>;
	/** The server's name as Discord has it (read once, then cached for a while); null when Discord could not say. */
	guildName(guildId: string): Promise<string | null>;
	/** The channel's state and, when it exists and the bot may see it, its name (without `#`). */
	describeChannel(guildId: string, channelId: string): Promise<ChannelDescription>;
	/**
	 * Renames a channel (text, voice or category) at once, never queued behind other requests. Rejects with
	 * RenameRateLimitedError on Discord's 429 (two renames per channel per 10 minutes), never retrying by
	 * itself, and with ChannelRefusedError when the channel is gone or the bot may not change it.
	 */
	renameChannel(channelId: string, name: string): Promise<void>;
	/**
	 * The bot's permissions in a channel as a Discord permission bit field, computed from the server's roles,
	 * the bot member's roles and the channel's overwrites (Administrator grants everything). Rejects with
	 * ChannelRefusedError('channelGone') when the channel is not in that server.
	 */
	channelPermissions(guildId: string, channelId: string): Promise<bigint>;
}

export interface RoleDescription {
	state: ResourceState;
	/** False when the role does not exist or Discord could not be asked. */
	managed: boolean;
}

export interface ChannelDescription {
	state: ResourceState;
	name: string | null;
}

/**
 * The bot's permissions in a channel of the server; none in one it cannot even see: a channel it may not see reads
 * as gone to it, and View Channel is what it lacks.
 */
export async function botPermissionsIn(
	guildApi: Pick<GuildApi, 'channelPermissions'>,
	guildId: string,
	channelId: string,
): Promise<bigint> {
	return guildApi.channelPermissions(guildId, channelId).catch((error: unknown) => {
		if (error instanceof ChannelRefusedError) return 0n;
		throw error;
	});
}
