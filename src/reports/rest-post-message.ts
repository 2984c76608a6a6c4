import { API } from '@discordjs/core/http-only';
import { REST } from '@discordjs/rest';
import type { PostMessage } from './report-post.js';

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
