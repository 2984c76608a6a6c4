import { REST } from '@discordjs/rest';
import { Routes, type APIMessage } from 'discord.js';
import { type Config } from '../config.js';
import { toMessageBody } from './message-body.js';
import { type MessagePayload } from './interaction.js';
import { API } from '@discordjs/core/http-only';
import { type PostMessage } from '../reports/build-report-post.js';

/**
 * REST with the bot token, no gateway needed: background jobs (reports, the history sampler) post
 * through it in both transports, from whichever process or worker runs them.
 */
export function createBotRest(config: Pick<Config, 'discordApiUrl' | 'discordToken'>): REST {
	return new REST({ api: config.discordApiUrl }).setToken(config.discordToken);
}

/** Where a post may say it is a retry of one already sent: Discord then keeps one message per nonce. */
export interface ChannelPostOptions {
	nonce?: string;
	/** With `nonce`: Discord returns the earlier message instead of posting twice (within a few minutes). */
	enforceNonce?: boolean;
}

/** Posts a message in a channel; nobody is pinged, files go as multipart. */
export async function postChannelMessage(
	rest: REST,
	channelId: string,
	payload: MessagePayload,
	options: ChannelPostOptions = {},
): Promise<APIMessage> {
	const { body, files } = toMessageBody(payload, 'public');
	const extra =
		options.nonce === undefined ? {} : { nonce: options.nonce, enforce_nonce: options.enforceNonce ?? true };
	return (await rest.post(Routes.channelMessages(channelId), {
		body: { ...body, ...extra },
		files: files.length > 0 ? files : undefined,
	})) as APIMessage;
}

/**
 * `postMessage` over Discord's REST API with the bot token: the gateway and the HTTP-interactions transport
 * both have one, and a report needs no gateway. Rejects with DiscordAPIError (status, code) as REST returns it.
 */
export function restPostMessage(options: { token: string; apiUrl?: string; rest?: REST }): PostMessage {
	const rest = options.rest ?? new REST(options.apiUrl ? { api: options.apiUrl } : {}).setToken(options.token);
	const api = new API(rest);
	return async (channelId, message) => {
		await api.channels.createMessage(channelId, {
			content: message.content,
			embeds: message.embeds,
			nonce: message.nonce,
			enforce_nonce: message.enforce_nonce,
			allowed_mentions: { parse: [] },
			files: message.files.map((file) => ({ name: file.name, data: file.data })),
		});
	};
}
