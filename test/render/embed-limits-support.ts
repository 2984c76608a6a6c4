import assert from 'node:assert/strict';
import type { APIEmbed } from 'discord.js';

/** Discord's embed limits, spelled out again here so a wrong constant in src/ cannot hide itself. */
const LIMITS = {
	title: 256,
	description: 4096,
	fields: 25,
	fieldName: 256,
	fieldValue: 1024,
	footerText: 2048,
	authorName: 256,
	total: 6000,
};

function codePoints(text: string): number {
	return [...text].length;
}

/** Fails with the offending part named when the embed breaks any limit Discord enforces (50035 otherwise). */
export function assertEmbedWithinLimits(embed: APIEmbed): void {
	const title = embed.title ?? '';
	const description = embed.description ?? '';
	const footer = embed.footer?.text ?? '';
	const author = embed.author?.name ?? '';
	const fields = embed.fields ?? [];

	assert.ok(codePoints(title) <= LIMITS.title, `title has ${codePoints(title)} code points`);
	assert.ok(codePoints(description) <= LIMITS.description, `description has ${codePoints(description)} code points`);
	assert.ok(fields.length <= LIMITS.fields, `${fields.length} fields`);
	assert.ok(codePoints(footer) <= LIMITS.footerText, `footer has ${codePoints(footer)} code points`);
	assert.ok(codePoints(author) <= LIMITS.authorName, `author has ${codePoints(author)} code points`);
	if (embed.footer) assert.ok(footer.trim().length > 0, 'footer text is empty');
	if (embed.author) assert.ok(author.trim().length > 0, 'author name is empty');

	let total = codePoints(title) + codePoints(description) + codePoints(footer) + codePoints(author);
	fields.forEach((field, index) => {
		assert.ok(field.name.trim().length > 0, `field ${index} has an empty name`);
		assert.ok(field.value.trim().length > 0, `field ${index} has an empty value`);
		assert.ok(
			codePoints(field.name) <= LIMITS.fieldName,
			`field ${index} name has ${codePoints(field.name)} code points`,
		);
		assert.ok(
			codePoints(field.value) <= LIMITS.fieldValue,
			`field ${index} value has ${codePoints(field.value)} code points`,
		);
		total += codePoints(field.name) + codePoints(field.value);
	});
	assert.ok(total <= LIMITS.total, `embed text totals ${total} code points`);
}
