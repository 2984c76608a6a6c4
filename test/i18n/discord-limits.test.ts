import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlashCommandBuilder, SlashCommandStringOption } from 'discord.js';
import { commandLocalizations, LOCALES, translator, type MessageKey } from '../../src/i18n/index.js';
import { codePoints, ENTRIES, fillPlaceholders } from './catalogue-support.js';

/**
 * Discord's limits by where a text goes (in code points); a key matching none is message content.
 * Chart texts are drawn into the image and have no Discord limit; they count as message content.
 */
const LIMITS: readonly { where: RegExp; min: number; max: number }[] = [
	{ where: /^commands\..*\.description$/u, min: 1, max: 100 },
	{ where: /^choices\./u, min: 1, max: 100 },
	{ where: /^modals\.[^.]+\.title$/u, min: 1, max: 45 },
	{ where: /^modals\.key\.label$/u, min: 1, max: 45 },
	{ where: /^modals\.key\.placeholder$/u, min: 0, max: 100 },
	{ where: /^buttons\./u, min: 1, max: 80 },
	{ where: /^embed\.title/u, min: 1, max: 256 },
	{ where: /^embed\.fields\./u, min: 1, max: 256 },
];
const MESSAGE_CONTENT = { min: 1, max: 2000 };
/** An account name is cut to 100 characters before it enters a text; ids and dates are shorter. */
const LONGEST_VALUE = 100;

function limitFor(key: string): { min: number; max: number } {
	return LIMITS.find(({ where }) => where.test(key)) ?? MESSAGE_CONTENT;
}

const descriptionKeys = [...ENTRIES.get('en-US')!.plain.keys()].filter((key) =>
	/^commands\..*\.description$/u.test(key),
) as MessageKey[];
const choiceKeys = [...ENTRIES.get('en-US')!.plain.keys()].filter((key) => key.startsWith('choices.')) as MessageKey[];

describe('Discord limits', () => {
	for (const locale of LOCALES) {
		it(`${locale}: every text fits where it is shown, with placeholders at their longest`, () => {
			const entries = ENTRIES.get(locale)!;
			const texts = [
				...entries.plain,
				...[...entries.plurals].flatMap(([base, forms]) => [...forms.values()].map((text) => [base, text] as const)),
			];
			for (const [key, text] of texts) {
				const { min, max } = limitFor(key);
				const longest = codePoints(fillPlaceholders(text, LONGEST_VALUE));
				assert.ok(codePoints(text) >= min, `${locale} ${key} is shorter than ${min}`);
				// Placeholders of descriptions, choices and modal texts are never filled: they have none.
				const length = /\{\{/u.test(text) ? longest : codePoints(text);
				assert.ok(length <= max, `${locale} ${key} has ${length} characters, over ${max}: ${text}`);
			}
		});
	}

	it('descriptions and choice names carry no placeholder (Discord shows them as they are)', () => {
		for (const key of [...descriptionKeys, ...choiceKeys]) {
			for (const locale of LOCALES) assert.doesNotMatch(translator(locale)(key), /\{\{/u, `${locale} ${key}`);
		}
	});

	it('discord.js accepts every description with its localisations', () => {
		for (const key of descriptionKeys) {
			assert.doesNotThrow(
				() =>
					new SlashCommandBuilder()
						.setName('probe')
						.setDescription(translator('en-US')(key))
						.setDescriptionLocalizations(commandLocalizations(key))
						.toJSON(),
				key,
			);
		}
	});

	it('discord.js accepts every choice name with its localisations', () => {
		for (const key of choiceKeys) {
			assert.doesNotThrow(
				() =>
					new SlashCommandStringOption()
						.setName('probe')
						.setDescription('probe')
						.addChoices({ name: translator('en-US')(key), name_localizations: commandLocalizations(key), value: 'v' })
						.toJSON(),
				key,
			);
		}
	});

	it('a description over 100 characters is refused by the same check (the check can fail)', () => {
		assert.throws(() => new SlashCommandBuilder().setName('probe').setDescription('x'.repeat(101)).toJSON());
		assert.throws(() =>
			new SlashCommandBuilder()
				.setName('probe')
				.setDescription('probe')
				.setDescriptionLocalizations({ de: 'x'.repeat(101) })
				.toJSON(),
		);
	});
});
