import type { APIEmbed } from 'discord.js';
import { EMBED_LIMITS } from '../render/embed-limits.js';
import { truncate } from '../render/format.js';

/**
 * The help text as an embed: its first line (`**…**`) the title, the command list the description. A message's
 * content holds only 2,000 characters, which the list outgrew in German and French; a description holds 4,096.
 */
export function helpEmbed(text: string): APIEmbed {
	const [first = '', ...rest] = text.split('\n');
	const title = first.replace(/^\*\*(.*)\*\*$/u, '$1');
	return {
		title: truncate(title, EMBED_LIMITS.title),
		description: truncate(rest.join('\n'), EMBED_LIMITS.description),
	};
}
