import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRANSLATED_LOCALES } from '../../src/i18n/index.js';
import {
	ENTRIES,
	invariantParts,
	invariantPartsWithoutCount,
	oneMeansExactlyOne,
	pluralCategories,
} from './catalogue-support.js';

const english = ENTRIES.get('en-US')!;

describe('the message catalogue', () => {
	it('en-US has every plural category its own rules need', () => {
		for (const [base, forms] of english.plurals) {
			assert.deepEqual([...forms.keys()].sort(), pluralCategories('en-US'), base);
		}
	});

	for (const locale of TRANSLATED_LOCALES) {
		describe(locale, () => {
			const entries = ENTRIES.get(locale)!;

			it('has exactly the keys of en-US, no missing and no extra', () => {
				assert.deepEqual([...entries.plain.keys()].sort(), [...english.plain.keys()].sort());
				assert.deepEqual([...entries.plurals.keys()].sort(), [...english.plurals.keys()].sort());
			});

			it('has exactly the plural categories Intl.PluralRules gives the language', () => {
				for (const [base, forms] of entries.plurals) {
					assert.deepEqual([...forms.keys()].sort(), pluralCategories(locale), base);
				}
			});

			it('keeps every placeholder, code span, mention, markdown span and line break of en-US', () => {
				for (const [key, text] of entries.plain) {
					const original = english.plain.get(key);
					if (original === undefined) continue; // reported by the key test
					assert.deepEqual(invariantParts(text), invariantParts(original), `${locale} ${key}: ${text}`);
				}
			});

			it('keeps them in every plural form, and the count wherever the form covers more than 1', () => {
				for (const [base, forms] of entries.plurals) {
					const original = english.plurals.get(base)?.get('other');
					if (original === undefined) continue;
					for (const [category, text] of forms) {
						const where = `${locale} ${base}_${category}: ${text}`;
						assert.deepEqual(invariantPartsWithoutCount(text), invariantPartsWithoutCount(original), where);
						if (category !== 'one' || !oneMeansExactlyOne(locale)) {
							assert.match(text, /\{\{count, number\}\}/u, where);
						}
					}
				}
			});

			it('translates: no text is left empty', () => {
				for (const [key, text] of entries.plain) assert.notEqual(text.trim(), '', key);
			});
		});
	}
});
