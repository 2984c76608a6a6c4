import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	commandLocalizations,
	formatNumber,
	LOCALES,
	resolveLocale,
	translator,
	TRANSLATED_LOCALES,
	type MessageKey,
} from '../../src/i18n/index.js';
import { ENTRIES } from './catalogue-support.js';

describe('resolveLocale', () => {
	it('keeps the product locales', () => {
		assert.equal(resolveLocale('de'), 'de');
		assert.equal(resolveLocale('ja'), 'ja');
		assert.equal(resolveLocale('pt-BR'), 'pt-BR');
		for (const locale of LOCALES) assert.equal(resolveLocale(locale), locale);
	});

	it('serves Latin-American Spanish (es-419) the Spanish catalogue', () => {
		assert.equal(resolveLocale('es-419'), 'es-ES');
		assert.equal(translator(resolveLocale('es-419'))('buttons.share'), translator('es-ES')('buttons.share'));
	});

	it('renders every other Discord locale as en-US, other regional variants included', () => {
		assert.equal(resolveLocale('en-GB'), 'en-US');
		assert.equal(resolveLocale('zh-CN'), 'en-US');
		assert.equal(resolveLocale('es'), 'en-US', 'not a Discord locale');
		assert.equal(resolveLocale('constructor'), 'en-US');
	});

	it('falls back to en-US for garbage, a wrong case or nothing', () => {
		assert.equal(resolveLocale('%%not a locale%%'), 'en-US');
		assert.equal(resolveLocale('DE'), 'en-US');
		assert.equal(resolveLocale(''), 'en-US');
		assert.equal(resolveLocale(null), 'en-US');
		assert.equal(resolveLocale(undefined), 'en-US');
	});
});

describe('translator', () => {
	it('answers in the language asked, whichever language was used just before', () => {
		const de = translator('de');
		const ja = translator('ja');
		assert.equal(de('buttons.share'), 'Im Kanal teilen');
		assert.equal(ja('buttons.share'), 'チャンネルで共有');
		assert.equal(de('buttons.share'), 'Im Kanal teilen');
		assert.equal(translator('en-US')('buttons.share'), 'Share in channel');
	});

	it('takes only keys of the catalogue, plural keys by their base name (checked by tsc)', () => {
		const t = translator('en-US');
		assert.equal(t('embed.age.days', { count: 2 }), '2 days old');
		// @ts-expect-error a key that is not in the catalogue
		assert.equal(t('embed.noSuchKey'), 'embed.noSuchKey');
		// @ts-expect-error a plural form is chosen by `count`, never named
		t('embed.age.days_one');
	});

	it('inserts values as they are: Discord is not HTML', () => {
		const text = translator('en-US')('embed.account', { account: 'Tom & Jerry <3 "quoted"' });
		assert.equal(text, 'Account: **Tom & Jerry <3 "quoted"**');
	});

	it('never reads an inserted value as a placeholder or a nested key (an account name is input)', () => {
		const text = translator('de')('embed.account', { account: '{{userId}} $t(buttons.share)', userId: '1' });
		assert.equal(text, 'Konto: **{{userId}} $t(buttons.share)**');
	});

	it('keeps mentions and code spans around the inserted values', () => {
		assert.equal(translator('fr')('stats.sharedBy', { userId: '123' }), 'Partagé par <@123>');
		assert.equal(
			translator('de')('refusal.serverStatsRole', { roleId: '42' }),
			'Nur Mitglieder mit <@&42> (oder Server verwalten) können die Statistik dieses Servers sehen.',
		);
	});

	it('fills every placeholder of every text in every locale', () => {
		for (const locale of LOCALES) {
			const t = translator(locale);
			const { plain, plurals } = ENTRIES.get(locale)!;
			const texts = [
				...plain,
				...[...plurals].flatMap(([base, forms]) => [...forms.values()].map((text) => [base, text] as const)),
			];
			for (const [key, template] of texts) {
				const vars: Record<string, unknown> = { count: 3 };
				for (const [, name = ''] of template.matchAll(/\{\{(\w+)/gu)) if (name !== 'count') vars[name] = 'x';
				const text = t(key as MessageKey, vars);
				assert.doesNotMatch(text, /\{\{|\}\}/u, `${locale} ${key}: ${text}`);
				assert.notEqual(text, key, `${locale} ${key} is missing`);
			}
		}
	});

	it('picks the plural form Intl.PluralRules picks and formats the count for the locale', () => {
		const counts = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1.5, 1_000_000];
		for (const locale of LOCALES) {
			const rules = new Intl.PluralRules(locale);
			for (const [base, forms] of ENTRIES.get(locale)!.plurals) {
				for (const count of counts) {
					const template = forms.get(rules.select(count));
					assert.ok(template, `${locale} ${base} lacks _${rules.select(count)}`);
					const expected = template.replaceAll('{{count, number}}', new Intl.NumberFormat(locale).format(count));
					assert.equal(translator(locale)(base as MessageKey, { count }), expected, `${locale} ${base} ${count}`);
				}
			}
		}
	});

	it('writes a million in French with the many form, not in English', () => {
		assert.equal(
			translator('fr')('chart.legend.average', { count: 1_000_000 }),
			'Moyenne sur 1\u202f000\u202f000 de jours',
		);
		assert.equal(translator('ru')('chart.legend.average', { count: 7 }), 'Среднее за 7 дней');
		assert.equal(translator('ru')('chart.legend.average', { count: 3 }), 'Среднее за 3 дня');
		assert.equal(translator('ja')('chart.legend.average', { count: 7 }), '7日間の平均');
	});
});

describe('commandLocalizations', () => {
	it('gives the seven non-English texts, keyed by Discord locale', () => {
		const localizations = commandLocalizations('choices.days.30');
		assert.deepEqual(Object.keys(localizations).sort(), [...TRANSLATED_LOCALES].sort());
		assert.equal(localizations.de, '30 Tage');
		assert.equal(localizations.ru, '30 дней');
		assert.equal(localizations.ja, '30日間');
		assert.equal('en-US' in localizations, false);
	});

	it('uses the same texts as the translator', () => {
		const localizations = commandLocalizations('commands.stats.description');
		for (const locale of TRANSLATED_LOCALES) {
			assert.equal(localizations[locale], translator(locale)('commands.stats.description'));
		}
	});
});

describe('formatNumber', () => {
	it('groups digits the way the language does, in standard notation', () => {
		assert.equal(formatNumber('en-US', 1_234_567), '1,234,567');
		assert.equal(formatNumber('de', 1_234_567.5), '1.234.567,5');
		assert.equal(formatNumber('ja', 1_500_000), '1,500,000');
		assert.equal(formatNumber('fr', 12_345), '12\u202f345');
		assert.equal(formatNumber('ru', 12_345), '12\u00a0345');
	});
});
