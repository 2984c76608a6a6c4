import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIEmbed } from 'discord.js';
import { EMBED_LIMITS, embedTextLength, fitEmbedToLimits } from '../../src/render/embed-limits.js';
import { buildStatsEmbed } from '../../src/render/embed.js';
import type { StatsResult, StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { assertEmbedWithinLimits } from './embed-limits-support.js';

/** A 20-digit count as JSON.parse would hand it over: past 2^53, so it arrives rounded to 1e20. */
const HUGE = Number('99999999999999999999');

function result(snapshot: StatsSnapshot, isStale = false): StatsResult {
	return { snapshot, fetchedAt: Date.UTC(2026, 10, 21), isStale };
}

function figures(value: number | null): StatsSnapshot {
	return {
		sends: { today: value, weekly: value, monthly: value, allTime: value, failedAllTime: value, dailyBreakdown: [] },
		joins: { today: value, weekly: value, monthly: value, allTime: value },
		meta: { generatedAt: '2026-11-21T09:30:12.123456+00:00', user: 'Acme' },
	};
}

const EMBED_OPTIONS = { locale: 'en-US', scope: 'server', chartFileName: 'stats-90d.png' } as const;

test('20-digit figures stay within every embed limit', () => {
	for (const locale of ['en-US', 'de', 'ar', 'hi']) {
		const embed = buildStatsEmbed(result(figures(HUGE), true), { ...EMBED_OPTIONS, locale, now: Date.UTC(2030, 0) });
		assertEmbedWithinLimits(embed);
		assert.equal(embed.fields?.length, 6, 'no field was dropped to fit');
	}
	const embed = buildStatsEmbed(result(figures(HUGE)), EMBED_OPTIONS);
	assert.match(embed.fields?.[0]?.value ?? '', /^Sends: \*\*100,000,000,000,000,000,000\*\*/u);
});

test('negative, fractional and non-finite figures stay within the limits', () => {
	for (const value of [-HUGE, 0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_VALUE]) {
		assertEmbedWithinLimits(buildStatsEmbed(result(figures(value)), EMBED_OPTIONS));
	}
	const embed = buildStatsEmbed(result(figures(Number.NaN)), EMBED_OPTIONS);
	assert.equal(embed.fields?.[0]?.value, 'Sends: **—**\nJoins: **—**');
});

test('a 10,000-character account name is cut and the embed stays within limits', () => {
	for (const user of ['x'.repeat(10_000), '*'.repeat(10_000), '@everyone '.repeat(1000), '😀'.repeat(10_000)]) {
		const snapshot = { ...figures(1234), meta: { generatedAt: null, user } };
		const embed = buildStatsEmbed(result(snapshot, true), {
			...EMBED_OPTIONS,
			notes: ['Chart unavailable right now.'],
		});
		assertEmbedWithinLimits(embed);
		assert.ok([...(embed.title ?? '')].length < 300, 'the name is a label, not content');
		assert.match(embed.description ?? '', /Stale/u, 'the stale marker survives a long name');
		assert.match(embed.description ?? '', /Chart unavailable right now\./u, 'the chart note survives a long name');
	}
});

test('a name of astral characters is cut on a code point boundary', () => {
	const snapshot = { ...figures(1), meta: { generatedAt: null, user: '😀'.repeat(10_000) } };
	const accountLine = (buildStatsEmbed(result(snapshot), EMBED_OPTIONS).description ?? '').split('\n')[0] ?? '';
	assert.doesNotMatch(accountLine, /[\ud800-\udbff](?![\udc00-\udfff])/u, 'no lone high surrogate');
	assert.ok(accountLine.endsWith('…**'), accountLine);
});

test('null everywhere and an empty breakdown still give a valid embed', () => {
	const snapshot: StatsSnapshot = { ...figures(null), meta: { generatedAt: null, user: null } };
	const embed = buildStatsEmbed(result(snapshot, true), { ...EMBED_OPTIONS, chartFileName: null });
	assertEmbedWithinLimits(embed);
	assert.equal(embed.image, undefined);
});

function overLimitEmbed(): APIEmbed {
	return {
		title: 't'.repeat(1000),
		description: 'd'.repeat(10_000),
		author: { name: 'a'.repeat(1000) },
		footer: { text: 'f'.repeat(5000) },
		fields: Array.from({ length: 40 }, (_, index) => ({
			name: index === 0 ? '' : `n${index}`.repeat(200),
			value: index === 1 ? '' : 'v'.repeat(2000),
		})),
	};
}

test('the limit helper itself refuses an over-limit embed', () => {
	assert.throws(() => assertEmbedWithinLimits(overLimitEmbed()), /title has 1000 code points/u);
	assert.throws(() => assertEmbedWithinLimits({ fields: [{ name: 'a', value: '' }] }), /empty value/u);
	assert.throws(
		() =>
			assertEmbedWithinLimits({
				description: 'd'.repeat(4096),
				title: 't'.repeat(256),
				fields: [
					{ name: 'n', value: 'v'.repeat(1024) },
					{ name: 'n', value: 'v'.repeat(1024) },
				],
			}),
		/totals 6402/u,
	);
});

test('fitEmbedToLimits cuts every part of an over-limit embed to Discord limits', () => {
	const input = overLimitEmbed();
	const before = JSON.stringify(input);
	const fitted = fitEmbedToLimits(input);
	assertEmbedWithinLimits(fitted);
	assert.equal(JSON.stringify(input), before, 'the input is not modified');
	assert.equal([...(fitted.title ?? '')].length, EMBED_LIMITS.title);
	assert.ok(fitted.title?.endsWith('…'));
	assert.equal([...(fitted.author?.name ?? '')].length, EMBED_LIMITS.authorName);
	assert.equal(fitted.fields?.[0]?.name, '—', 'an empty field name becomes the dash');
	assert.equal(fitted.fields?.[1]?.value, '—', 'an empty field value becomes the dash');
	assert.ok(embedTextLength(fitted) <= EMBED_LIMITS.total);
});

test('fitEmbedToLimits gives way in the description first and keeps the fields', () => {
	const fields = Array.from({ length: 6 }, (_, index) => ({ name: `Field ${index}`, value: 'v'.repeat(500) }));
	const fitted = fitEmbedToLimits({
		title: 'Title',
		description: 'd'.repeat(4096),
		footer: { text: 'Footer' },
		fields,
	});
	assertEmbedWithinLimits(fitted);
	assert.deepEqual(fitted.fields, fields);
	assert.equal(fitted.title, 'Title');
	assert.equal(fitted.footer?.text, 'Footer');
	assert.equal(embedTextLength(fitted), EMBED_LIMITS.total, 'cut exactly to the total, no further');
	assert.ok(fitted.description?.endsWith('…'));
});

test('fitEmbedToLimits drops trailing fields when the fields alone exceed the total', () => {
	const fields = Array.from({ length: 25 }, (_, index) => ({ name: `Field ${index}`, value: 'v'.repeat(1024) }));
	const fitted = fitEmbedToLimits({ title: 'Title', fields });
	assertEmbedWithinLimits(fitted);
	assert.deepEqual(fitted.fields, fields.slice(0, 5));
});

test('fitEmbedToLimits leaves an embed within limits unchanged', () => {
	const embed: APIEmbed = { title: 'T', description: 'D', fields: [{ name: 'N', value: 'V', inline: true }], color: 1 };
	assert.deepEqual(fitEmbedToLimits(embed), embed);
});

test('embed text length counts code points, not UTF-16 units', () => {
	assert.equal(embedTextLength({ title: '😀😀', fields: [{ name: 'é', value: '👍🏽' }] }), 5);
});
