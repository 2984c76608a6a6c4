import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIEmbed } from 'discord.js';
import { changeBetween, type Comparisons, type PeriodComparison } from '../../src/history/compare.js';
import { comparePeriods } from '../../src/history/compare.js';
import { foldSnapshot } from '../../src/history/record.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { translator } from '../../src/i18n/index.js';
import { makeSnapshot } from '../history/snapshots.js';
import {
	buildStatsEmbed,
	changeText,
	failureShare,
	joinsPer100Sends,
	sanitizeAccountName,
} from '../../src/render/embed.js';
import type { StatsEmbedOptions } from '../../src/render/embed.js';
import type { StatsResult, StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { assertEmbedWithinLimits } from './embed-limits-support.js';

const GENERATED_AT = '2026-11-21T09:30:12.123456+00:00';
const GENERATED_SECONDS = Date.UTC(2026, 10, 21, 9, 30, 12) / 1000;
const FETCHED_AT = Date.UTC(2026, 10, 21, 9, 30, 13);

function snapshot(overrides: { user?: string | null; generatedAt?: string | null } = {}): StatsSnapshot {
	return {
		sends: { today: 12, weekly: 1234, monthly: 2000, allTime: 97_500, failedAllTime: 2500, dailyBreakdown: [] },
		joins: { today: 3, weekly: 40, monthly: 150, allTime: 5432 },
		meta: {
			generatedAt: overrides.generatedAt === undefined ? GENERATED_AT : overrides.generatedAt,
			user: overrides.user === undefined ? 'Acme Ads' : overrides.user,
		},
	};
}

function fresh(snap: StatsSnapshot): StatsResult {
	return { snapshot: snap, fetchedAt: FETCHED_AT, isStale: false };
}

/** Every embed in this file goes through the limit check, so no test can build an embed Discord would refuse. */
function build(result: StatsResult, options: Partial<StatsEmbedOptions> = {}): APIEmbed {
	const embed = buildStatsEmbed(result, { locale: 'en-US', scope: 'me', now: FETCHED_AT, ...options });
	assertEmbedWithinLimits(embed);
	return embed;
}

function fieldValues(embed: APIEmbed): Record<string, string> {
	return Object.fromEntries((embed.fields ?? []).map((field) => [field.name, field.value]));
}

test('embed fields show the period totals with en-US grouping', () => {
	assert.deepEqual(fieldValues(build(fresh(snapshot()))), {
		'Today so far': 'Sends: **12**\nJoins: **3**',
		'Last 7 days': 'Sends: **1,234**\nJoins: **40**',
		'Last 30 days': 'Sends: **2,000**\nJoins: **150**',
		'All time': 'Sends: **97,500**\nJoins: **5,432**',
		'Failed sends (all time)': '**2,500**\n2.5% of attempts',
		'Joins per 100 sends': '**7.5**\nlast 30 days',
	});
});

test('embed fields are German, with German grouping and decimal commas, for the de locale', () => {
	assert.deepEqual(fieldValues(build(fresh(snapshot()), { locale: 'de' })), {
		'Heute bisher': 'Sendungen: **12**\nBeitritte: **3**',
		'Letzte 7 Tage': 'Sendungen: **1.234**\nBeitritte: **40**',
		'Letzte 30 Tage': 'Sendungen: **2.000**\nBeitritte: **150**',
		Insgesamt: 'Sendungen: **97.500**\nBeitritte: **5.432**',
		'Fehlgeschlagene Sendungen (insgesamt)': '**2.500**\n2,5\u00a0% der Versuche',
		'Beitritte je 100 Sendungen': '**7,5**\nletzte 30 Tage',
	});
});

test('a locale outside the catalogue renders exactly as en-US, numbers included', () => {
	assert.deepEqual(
		fieldValues(build(fresh(snapshot()), { locale: 'en-GB' })),
		fieldValues(build(fresh(snapshot()), { locale: 'en-US' })),
	);
});

test('a Latin-American Spanish member (es-419) reads the Spanish embed, numbers included', () => {
	assert.deepEqual(
		fieldValues(build(fresh(snapshot()), { locale: 'es-419' })),
		fieldValues(build(fresh(snapshot()), { locale: 'es-ES' })),
	);
	assert.equal(
		fieldValues(build(fresh(snapshot()), { locale: 'es-419' }))['Últimos 7 días'],
		'Envíos: **1234**\nUniones: **40**',
	);
});

test('an unknown or malformed locale falls back to en-US numbers', () => {
	for (const locale of ['xx-invalid-locale-tag-!!', '']) {
		assert.equal(fieldValues(build(fresh(snapshot()), { locale }))['Last 7 days'], 'Sends: **1,234**\nJoins: **40**');
	}
});

test('failure share counts failed sends against all attempts, successful plus failed', () => {
	assert.equal(failureShare(snapshot()), 2500 / 100_000);
	const none = snapshot();
	none.sends.allTime = 0;
	none.sends.failedAllTime = 0;
	assert.equal(failureShare(none), null, 'no attempts: no share');
	assert.equal(fieldValues(build(fresh(none)))['Failed sends (all time)'], '**0**\n— of attempts');
});

test('joins per 100 sends uses the 30-day period and is unknown without sends', () => {
	assert.equal(joinsPer100Sends(snapshot()), 7.5);
	const noSends = snapshot();
	noSends.sends.monthly = 0;
	assert.equal(joinsPer100Sends(noSends), null);
	assert.equal(fieldValues(build(fresh(noSends)))['Joins per 100 sends'], '**—**\nlast 30 days');
});

test('null figures show as a dash, never as 0 or "null"', () => {
	const snap: StatsSnapshot = {
		sends: { today: null, weekly: null, monthly: null, allTime: null, failedAllTime: null, dailyBreakdown: [] },
		joins: { today: null, weekly: null, monthly: null, allTime: null },
		meta: { generatedAt: null, user: null },
	};
	const embed = build(fresh(snap));
	assert.deepEqual(fieldValues(embed), {
		'Today so far': 'Sends: **—**\nJoins: **—**',
		'Last 7 days': 'Sends: **—**\nJoins: **—**',
		'Last 30 days': 'Sends: **—**\nJoins: **—**',
		'All time': 'Sends: **—**\nJoins: **—**',
		'Failed sends (all time)': '**—**\n— of attempts',
		'Joins per 100 sends': '**—**\nlast 30 days',
	});
	assert.equal(embed.title, 'Ad statistics');
	assert.match(embed.description ?? '', /^Account: —\nGenerated: —$/);
	assert.equal(embed.timestamp, undefined);
	assert.doesNotMatch(JSON.stringify(embed), /null|NaN|undefined/);
});

test('account name cannot format or ping: markdown escaped, mentions broken', () => {
	const embed = build(
		fresh(snapshot({ user: '*bold* _x_ @everyone <@123> @here <@&456> ~~s~~ `c` [l](https://e.x)' })),
	);
	for (const text of [embed.title ?? '', embed.description ?? '']) {
		assert.doesNotMatch(text, /@(everyone|here)/u, 'no mass mention');
		assert.doesNotMatch(text, /<@[!&]?\d+>/u, 'no user or role mention');
		assert.doesNotMatch(text, /(?<!\\)\*bold(?<!\\)\*/u, 'no bold');
		assert.doesNotMatch(text, /(?<!\\)_x(?<!\\)_/u, 'no italics');
		assert.doesNotMatch(text, /(?<!\\)\[l\]\(/u, 'no masked link');
	}
	assert.ok(embed.description?.startsWith('Account: **\\*bold\\* \\_x\\_ @\u200beveryone'), embed.description);
});

test('account name stays on one line, so it cannot start a heading or a list', () => {
	const name = sanitizeAccountName('Acme\n# Heading\n- item\r\n> quote');
	assert.doesNotMatch(name, /[\r\n]/u);
	const embed = build(fresh(snapshot({ user: 'Acme\n# Heading' })));
	assert.equal(embed.description?.split('\n')[0], `Account: **${sanitizeAccountName('Acme\n# Heading')}**`);
});

test('an empty account name still shows something Discord accepts', () => {
	assert.equal(sanitizeAccountName('   '), '\\-');
	build(fresh(snapshot({ user: '' })));
});

test('generated_at becomes Discord timestamps in full and relative form', () => {
	const embed = build(fresh(snapshot()));
	assert.equal(
		embed.description,
		`Account: **Acme Ads**\nGenerated <t:${GENERATED_SECONDS}:f> (<t:${GENERATED_SECONDS}:R>)`,
	);
	assert.equal(embed.timestamp, undefined, 'the time is shown once, in the description');
});

test('an unparsable generated_at shows a dash instead of a broken timestamp', () => {
	const embed = build(fresh(snapshot({ generatedAt: 'yesterday-ish' })));
	assert.match(embed.description ?? '', /\nGenerated: —$/u);
	assert.equal(embed.timestamp, undefined);
	assert.doesNotMatch(embed.description ?? '', /NaN/u);
});

test('a stale snapshot is marked with its fetch time and age', () => {
	const fetchedAt = FETCHED_AT - 5 * 60_000;
	const stale: StatsResult = { snapshot: snapshot(), fetchedAt, isStale: true };
	const embed = build(stale, { now: FETCHED_AT });
	const staleLine = (embed.description ?? '').split('\n')[2];
	assert.equal(
		staleLine,
		`⚠️ **Stale:** the stats service is unreachable; showing data from <t:${fetchedAt / 1000}:R> (5 minutes old).`,
	);
	assert.notEqual(embed.color, build(fresh(snapshot())).color, 'stale has its own colour');
	assert.doesNotMatch(build(fresh(snapshot())).description ?? '', /Stale/u);
});

test('stale age reads in hours and days as it grows', () => {
	const age = (ms: number) => {
		const embed = build({ snapshot: snapshot(), fetchedAt: FETCHED_AT - ms, isStale: true }, { now: FETCHED_AT });
		return /\((.+) old\)/u.exec(embed.description ?? '')?.[1];
	};
	assert.equal(age(1000), '1 second');
	assert.equal(age(30_000), '30 seconds');
	assert.equal(age(3 * 3600_000), '3 hours');
	assert.equal(age(3 * 86_400_000), '3 days');
});

test("the stale line and its age are in the reply's language", () => {
	const stale = { snapshot: snapshot(), fetchedAt: FETCHED_AT - 5 * 60_000, isStale: true };
	assert.match(build(stale, { locale: 'de', now: FETCHED_AT }).description ?? '', /Veraltet:.*\(5 Minuten alt\)/u);
	assert.match(build(stale, { locale: 'ja', now: FETCHED_AT }).description ?? '', /古いデータ.*5分前/u);
	const oneMinute = { ...stale, fetchedAt: FETCHED_AT - 60_000 };
	assert.match(build(oneMinute, { now: FETCHED_AT }).description ?? '', /\(60 seconds old\)/u);
});

test('a chart file name points the embed image at the attachment', () => {
	const embed = build(fresh(snapshot()), { chartFileName: 'stats-30d.png' });
	assert.deepEqual(embed.image, { url: 'attachment://stats-30d.png' });
	assert.equal(build(fresh(snapshot()), { chartFileName: null }).image, undefined);
	assert.equal(build(fresh(snapshot())).image, undefined);
});

test('a chart note is shown in the description', () => {
	const embed = build(fresh(snapshot()), { notes: ['Chart unavailable right now.'] });
	assert.equal(embed.description?.split('\n').at(-1), 'Chart unavailable right now.');
});

test('scope server names the server account', () => {
	assert.match(build(fresh(snapshot()), { scope: 'server' }).description ?? '', /^Server's account: \*\*Acme Ads\*\*/u);
});

const period = (from: string, current: number | null, previous: number | null): PeriodComparison => ({
	from,
	to: '2026-11-20',
	current,
	previous,
	change: changeBetween(current, previous),
});

function comparisons(): Comparisons {
	return {
		sends: {
			day: { today: 12, yesterday: 172 },
			week: period('2026-11-14', 1234, 1490),
			month: period('2026-10-22', 2000, 2000),
		},
		joins: {
			day: { today: 3, yesterday: null },
			week: period('2026-11-14', 40, null),
			month: period('2026-10-22', null, 100),
		},
	};
}

test('today stands beside yesterday, without a percentage; full days to yesterday carry the change', () => {
	const embed = build(fresh(snapshot()), { comparisons: comparisons() });
	assert.deepEqual(fieldValues(embed), {
		'Today so far': 'Sends: **12** · yesterday 172\nJoins: **3** · yesterday —',
		'Last 7 days': 'Sends: **1,234**\nJoins: **40**',
		'Last 30 days': 'Sends: **2,000**\nJoins: **150**',
		'All time': 'Sends: **97,500**\nJoins: **5,432**',
		'Failed sends (all time)': '**2,500**\n2.5% of attempts',
		'Joins per 100 sends': '**7.5**\nlast 30 days',
		'7 full days to yesterday': 'Sends: **1,234** ▼ −17.2 %\nJoins: **40** —',
		'30 full days to yesterday': 'Sends: **2,000** ■ ±0.0 %\nJoins: **—**',
	});
	assert.doesNotMatch(embed.fields?.[0]?.value ?? '', /[▲▼■★%]/u, 'today has no change');
	assert.match(embed.footer?.text ?? '', /Days are UTC calendar days\./u);
	assert.match(embed.footer?.text ?? '', /compare full UTC days with as many days just before them/u);
});

test('the comparisons are worded in the reply language, numbers included', () => {
	const fields = fieldValues(build(fresh(snapshot()), { comparisons: comparisons(), locale: 'de' }));
	assert.equal(fields['Heute bisher'], 'Sendungen: **12** · gestern 172\nBeitritte: **3** · gestern —');
	assert.equal(fields['7 volle Tage bis gestern'], 'Sendungen: **1.234** ▼ −17,2 %\nBeitritte: **40** —');
});

test('at 00:05, 12:18 and 23:55 UTC the full-day fields read the same and today carries no percentage', () => {
	const today = '2026-11-21';
	const texts = ['00:05', '12:18', '23:55'].map((time) => {
		const now = Date.parse(`${today}T${time}:00Z`);
		// 61 complete days (120 sends a day for the 7 to yesterday, 100 before), then today so far.
		const breakdown = (from: number, to: number, sends: (back: number) => number) =>
			Object.fromEntries(
				Array.from({ length: to - from + 1 }, (_, i) => [addDays(today, -(from + i)), sends(from + i)]),
			);
		const older = makeSnapshot({
			generatedAt: `${addDays(today, -30)}T06:00:00Z`,
			breakdown: breakdown(30, 60, () => 100),
		});
		const soFar = Math.round((Date.parse(`${today}T${time}:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 600_000);
		const live = makeSnapshot({
			generatedAt: new Date(now).toISOString(),
			breakdown: { ...breakdown(1, 29, (back) => (back <= 7 ? 120 : 100)), [today]: soFar },
			sendsToday: soFar,
		});
		const record = foldSnapshot(foldSnapshot(null, older, now), live, now);
		const embed = build(fresh(snapshot()), { comparisons: comparePeriods(record, live, utcDateOf(now)), now });
		return fieldValues(embed);
	});
	for (const fields of texts) {
		assert.equal(fields['7 full days to yesterday'], 'Sends: **840** ▲ +20.0 %\nJoins: **—**');
		assert.equal(fields['30 full days to yesterday'], 'Sends: **3,140** ▲ +4.7 %\nJoins: **—**');
		assert.match(fields['Today so far'] ?? '', /^Sends: \*\*12\*\* · yesterday 120\nJoins: \*\*3\*\* · yesterday —$/u);
	}
});

test('a change rounds to one decimal before it picks its arrow, and follows the locale', () => {
	const t = translator('en-US');
	assert.equal(changeText({ kind: 'percent', value: 12.46 }, t, 'en-US'), '▲ +12.5 %');
	assert.equal(changeText({ kind: 'percent', value: -0.04 }, t, 'en-US'), '■ ±0.0 %');
	assert.equal(changeText({ kind: 'percent', value: 1234.5 }, t, 'en-US'), '▲ +1,234.5 %');
	assert.equal(changeText({ kind: 'percent', value: -17.16 }, translator('de'), 'de'), '▼ −17,2 %');
	assert.equal(changeText({ kind: 'new' }, translator('ja'), 'ja'), '★ 新規');
	assert.equal(changeText({ kind: 'unknown' }, t, 'en-US'), '—');
});

test('the embed names the account once and says who shared a public copy', () => {
	const embed = build(fresh(snapshot()), { sharedBy: '123456789012345678', locale: 'de' });
	const text = JSON.stringify(embed);
	assert.equal(text.split('Acme Ads').length - 1, 1, 'the account is named exactly once');
	assert.equal(embed.description?.split('\n').at(-1), 'Geteilt von <@123456789012345678>');
	assert.doesNotMatch(JSON.stringify(build(fresh(snapshot()))), /Shared by/u, 'a private reply does not say it');
});

test('chart notes are listed in the description, one per line', () => {
	const notes = ['History starts on November 1, 2026: the chart begins there.', 'Second line.'];
	const embed = build(fresh(snapshot()), { notes });
	assert.deepEqual(embed.description?.split('\n').slice(-2), notes);
});
