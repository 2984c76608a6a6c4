import type { APIEmbed } from 'discord.js';
import { codePointLength, MISSING, truncate } from './format.js';

/** Discord's embed limits; over any of them the whole message is refused with 50035 "Invalid Form Body". */
export const EMBED_LIMITS = {
	title: 256,
	description: 4096,
	fields: 25,
	fieldName: 256,
	fieldValue: 1024,
	footerText: 2048,
	authorName: 256,
	total: 6000,
} as const;

/** The characters Discord counts towards the 6000 total of an embed. */
export function embedTextLength(embed: APIEmbed): number {
	let total = codePointLength(embed.title ?? '') + codePointLength(embed.description ?? '');
	total += codePointLength(embed.footer?.text ?? '') + codePointLength(embed.author?.name ?? '');
	for (const field of embed.fields ?? []) total += codePointLength(field.name) + codePointLength(field.value);
	return total;
}

/** Returns a copy of the embed cut down to Discord's limits, whatever the input (a safety net behind sane builders). */
export function fitEmbedToLimits(embed: APIEmbed): APIEmbed {
	const fitted: APIEmbed = { ...embed };
	if (fitted.title !== undefined) fitted.title = truncate(fitted.title, EMBED_LIMITS.title);
	if (fitted.description !== undefined) fitted.description = truncate(fitted.description, EMBED_LIMITS.description);
	if (fitted.footer) fitted.footer = { ...fitted.footer, text: truncate(fitted.footer.text, EMBED_LIMITS.footerText) };
	if (fitted.author) fitted.author = { ...fitted.author, name: truncate(fitted.author.name, EMBED_LIMITS.authorName) };
	if (fitted.fields) {
		// Discord refuses empty field names and values, so an empty one becomes the missing-figure dash.
		fitted.fields = fitted.fields.slice(0, EMBED_LIMITS.fields).map((field) => ({
			...field,
			name: truncate(field.name, EMBED_LIMITS.fieldName) || MISSING,
			value: truncate(field.value, EMBED_LIMITS.fieldValue) || MISSING,
		}));
	}

	// The description is the free text; it gives way first, then the footer, then trailing fields.
	let overflow = embedTextLength(fitted) - EMBED_LIMITS.total;
	if (overflow > 0 && fitted.description) {
		const length = codePointLength(fitted.description);
		fitted.description = truncate(fitted.description, Math.max(1, length - overflow));
		overflow = embedTextLength(fitted) - EMBED_LIMITS.total;
	}
	if (overflow > 0 && fitted.footer) {
		const length = codePointLength(fitted.footer.text);
		fitted.footer = { ...fitted.footer, text: truncate(fitted.footer.text, Math.max(1, length - overflow)) };
		overflow = embedTextLength(fitted) - EMBED_LIMITS.total;
	}
	while (overflow > 0 && fitted.fields && fitted.fields.length > 0) {
		fitted.fields = fitted.fields.slice(0, -1);
		overflow = embedTextLength(fitted) - EMBED_LIMITS.total;
	}
	if (overflow > 0 && fitted.title) {
		fitted.title = truncate(fitted.title, Math.max(1, codePointLength(fitted.title) - overflow));
	}
	return fitted;
}
