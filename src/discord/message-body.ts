import { MessageFlags } from 'discord.js';
import type { MessageBody } from './responder.js';
import type { MessagePayload, Visibility } from './interaction.js';
import type { ReplyFile } from '../message.js';

/**
 * The JSON body of a message and the files that go with it. Nobody is pinged by anything the bot
 * posts (account names and shared figures may contain mentions); an edit leaves the attachments
 * alone unless `files` is given, and `files: []` removes them.
 */
export function toMessageBody(
	payload: MessagePayload,
	visibility: Visibility | null,
): { body: MessageBody; files: ReplyFile[] } {
	const files = payload.files ?? [];
	const body: MessageBody = { allowed_mentions: { parse: [] } };
	if (payload.content !== undefined) body.content = payload.content;
	if (payload.embeds !== undefined) body.embeds = payload.embeds;
	if (payload.components !== undefined) body.components = payload.components;
	if (payload.files !== undefined)
		body.attachments = files.map((file, index) => ({ id: String(index), filename: file.name }));
	if (visibility === 'private') body.flags = MessageFlags.Ephemeral;
	return { body, files };
}
