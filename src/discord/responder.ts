import type { API } from '@discordjs/core/http-only';
import { Routes, type APIInteractionResponse, type RESTPostAPIWebhookWithTokenJSONBody } from 'discord.js';
import type { ReplyFile } from '../message.js';

/** The message body Discord takes for replies, edits and follow-ups. */
export type MessageBody = RESTPostAPIWebhookWithTokenJSONBody & { flags?: number; attachments?: unknown[] };

/** Who the answer goes to: the interaction's id and token (the token lives 15 minutes). */
export interface InteractionAddress {
	id: string;
	token: string;
	applicationId: string;
}

/**
 * How answers reach Discord. The first response differs by transport (a REST callback for gateway
 * interactions, the HTTP response for HTTP interactions); edits and follow-ups are always REST.
 */
export interface InteractionResponder {
	respond(to: InteractionAddress, response: APIInteractionResponse, files: ReplyFile[]): Promise<void>;
	editOriginal(to: InteractionAddress, body: MessageBody, files: ReplyFile[]): Promise<void>;
	followUp(to: InteractionAddress, body: MessageBody, files: ReplyFile[]): Promise<void>;
}

/** Edits and follow-ups over Discord's webhook routes (no bot token: the interaction token authorises). */
export function restFollowUps(api: API): Pick<InteractionResponder, 'editOriginal' | 'followUp'> {
	return {
		async editOriginal(to, body, files) {
			await api.interactions.editReply(to.applicationId, to.token, { ...body, files });
		},
		async followUp(to, body, files) {
			await api.interactions.followUp(to.applicationId, to.token, { ...body, files });
		},
	};
}

/** Every answer over REST, the first one through the interaction callback route (gateway delivery). */
export function restResponder(api: API): InteractionResponder {
	return {
		...restFollowUps(api),
		async respond(to, response, files) {
			await postCallback(api, to, response, files);
		},
	};
}

/** POST /interactions/{id}/{token}/callback with the response type and data as Discord defines them. */
export async function postCallback(
	api: API,
	to: InteractionAddress,
	response: APIInteractionResponse,
	files: ReplyFile[],
): Promise<void> {
	const data = 'data' in response ? response.data : undefined;
	await api.rest.post(Routes.interactionCallback(to.id, to.token), {
		body: { type: response.type, ...(data === undefined ? {} : { data }) },
		files: files.length > 0 ? files : undefined,
		auth: false,
		query: new URLSearchParams({ with_response: 'false' }),
	});
}
