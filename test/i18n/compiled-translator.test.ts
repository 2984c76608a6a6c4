import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALES, referenceTranslator, translator, type MessageKey } from '../../src/i18n/index.js';
import { ENTRIES } from './catalogue-support.js';

/** Values of every kind a caller passes: text, numbers (whole, fractional, large), none at all. */
function sampleVars(text: string): Record<string, unknown>[] {
	const names = [...text.matchAll(/\{\{\s*([^,}\s]+)/gu)].map((match) => match[1]!);
	const all = (value: (name: string) => unknown) => Object.fromEntries(names.map((name) => [name, value(name)]));
	return [
		{},
		all((name) => `<${name} & co>`),
		all(() => 1234567.891),
		all(() => 0),
		all(() => null),
		{ ...all(() => 'x'), unused: 'y' },
	];
}

const COUNTS = [0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5, 1000000];

describe('the compiled translator', () => {
	for (const locale of LOCALES) {
		it(`writes exactly what i18next writes, ${locale}, every key`, () => {
			const fast = translator(locale);
			const reference = referenceTranslator(locale);
			const english = ENTRIES.get('en-US')!;
			for (const [key, text] of english.plain) {
				for (const vars of sampleVars(text)) {
					const k = key as MessageKey;
					assert.equal(fast(k, vars), reference(k, vars), `${locale} ${key} ${JSON.stringify(vars)}`);
				}
				assert.equal(fast(key as MessageKey), reference(key as MessageKey), `${locale} ${key}`);
			}
			for (const [base, forms] of english.plurals) {
				const text = forms.get('other')!;
				for (const count of COUNTS) {
					for (const vars of sampleVars(text)) {
						const asked = { ...vars, count };
						const k = base as MessageKey;
						assert.equal(fast(k, asked), reference(k, asked), `${locale} ${base} ${JSON.stringify(asked)}`);
					}
				}
				assert.equal(fast(base as MessageKey, { count: '3' }), reference(base as MessageKey, { count: '3' }));
			}
		});
	}

	it('answers a missing key, a group and odd values as i18next does', () => {
		for (const locale of LOCALES) {
			const fast = translator(locale);
			const reference = referenceTranslator(locale);
			for (const [key, vars] of [
				['no.such.key', undefined],
				['embed', undefined],
				['errors.incident', { incidentId: { a: 1 } }],
				['errors.incident', { incidentId: ['a', 'b'] }],
				['errors.cooldown', { seconds: '12' }],
			] as const) {
				assert.equal(fast(key as MessageKey, vars), reference(key as MessageKey, vars), `${locale} ${key}`);
			}
		}
	});
});
