import type { APIEmbed } from 'discord.js';

/** A file sent with a message; the embed points at it as `attachment://<name>`. */
export interface ReplyFile {
	name: string;
	data: Buffer;
	/** Sent as the part's type; without it, @discordjs/rest sniffs the bytes of every upload to guess one. */
	contentType?: string;
}

/** A message as the core builds it (a report, an audit line, a stats reply): text, embeds and files. */
export interface ChannelMessage {
	content?: string;
	embeds?: APIEmbed[];
	/** Replaces every attachment of the message: an edit without files removes the old ones. */
	files?: ReplyFile[];
}
