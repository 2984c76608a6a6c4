import { escapeMarkdown } from 'discord.js';
import type { APIEmbed, APIEmbedField } from 'discord.js';
import type {
	Change,
	Comparisons,
	PeriodComparison,
	RangeComparisons,
	TodayBesideYesterday,
} from '../history/compare.js';
import { resolveLocale, translator, type MessageKey, type Translate } from '../i18n/index.js';
import type { Figure, StatsResult, StatsSnapshot } from '../stats-api/snapshot.js';
import type { StatsScope } from '../stats-options.js';
import { fitEmbedToLimits } from './embed-limits.js';
import { formatCount, formatDecimal, formatPercent, formatOneDecimal, formatUtcDateRange, truncate } from './format.js';

/** An account name longer than this is cut before escaping: the name is a label, not content. */
const MAX_ACCOUNT_NAME_LENGTH = 100;
const COLOR_FRESH = 0x5865f2;
const COLOR_STALE = 0xf0b232;
const ZERO_WIDTH_SPACE = '\u200b';

export interface StatsEmbedOptions {
	/**
	 * The reply's language: the member's locale for private replies, the server's for public copies. Any
	 * locale outside the catalogue renders exactly as en-US, numbers included.
	 */
	locale: string;
	scope: StatsScope;
	/** Name of the uploaded chart file; null or absent means the embed carries no image. */
	chartFileName?: string | null;
	/** Already translated remarks about the chart ("History starts on …"), one line each. */
	notes?: readonly string[];
	/** Each period against the one before it; absent or null shows the figures without a change. */
	comparisons?: Comparisons | null;
	/**
	 * Set when the member chose a range: its complete days against as many before, in place of the 7- and 30-day
	 * comparisons; null when the range has no complete day (today alone). Absent: the 7- and 30-day ones.
	 */
	rangeComparisons?: RangeComparisons | null;
	/** The member who posted a public copy; named in it so the channel knows whose account it is. */
	sharedBy?: string | null;
	/** Epoch ms used to state a stale snapshot's age; defaults to Date.now(). */
	now?: number;
}

/**
 * Builds the /stats embed (plain JSON); always within Discord's embed limits, whatever the snapshot holds.
 * The account is named once (in the description) and the time once (the "generated" line, which Discord
 * renders in each reader's time zone): no embed timestamp repeating it.
 */
export function buildStatsEmbed(result: StatsResult, options: StatsEmbedOptions): APIEmbed {
	const locale = resolveLocale(options.locale);
	const t = translator(locale);
	const { snapshot } = result;
	const name = snapshot.meta.user === null ? null : sanitizeAccountName(snapshot.meta.user);
	const footer = options.comparisons ? `${t('embed.footer')}\n${t('fullDays.note')}` : t('embed.footer');

	const embed: APIEmbed = {
		title: t('embed.titleNoAccount'),
		description: buildDescription(result, name, options, t),
		color: result.isStale ? COLOR_STALE : COLOR_FRESH,
		fields: buildFields(snapshot, options.comparisons ?? null, t, locale, options.rangeComparisons),
		footer: { text: footer },
	};
	if (options.chartFileName) embed.image = { url: `attachment://${options.chartFileName}` };
	return fitEmbedToLimits(embed);
}

/** Escapes markdown and breaks mentions so a hostile account name can neither format nor ping. */
export function sanitizeAccountName(raw: string): string {
	// Line breaks would let a name start a heading or list; a name is one line.
	const oneLine = raw.replace(/\s+/gu, ' ').trim();
	const escaped = escapeMarkdown(truncate(oneLine, MAX_ACCOUNT_NAME_LENGTH), { maskedLink: true });
	// A zero-width space after "@" stops @everyone, @here, <@id> and <@&id> from resolving.
	return escaped.replaceAll('@', `@${ZERO_WIDTH_SPACE}`) || '\\-';
}

function buildDescription(result: StatsResult, name: string | null, options: StatsEmbedOptions, t: Translate): string {
	const lines: string[] = [];
	// Neutral wording: the same embed is posted publicly by Share, where "your" would mislead.
	if (options.scope === 'server') {
		lines.push(name === null ? t('embed.serverAccountUnknown') : t('embed.serverAccount', { account: name }));
	} else {
		lines.push(name === null ? t('embed.accountUnknown') : t('embed.account', { account: name }));
	}
	const generatedAt = parseTimestamp(result.snapshot.meta.generatedAt);
	lines.push(
		generatedAt === null
			? t('embed.generatedUnknown')
			: t('embed.generated', {
					time: discordTimestamp(generatedAt, 'f'),
					relative: discordTimestamp(generatedAt, 'R'),
				}),
	);
	if (result.isStale) {
		const age = ageText((options.now ?? Date.now()) - result.fetchedAt, t);
		lines.push(t('embed.stale', { relative: discordTimestamp(result.fetchedAt, 'R'), age }));
	}
	for (const note of options.notes ?? []) lines.push(note);
	if (options.sharedBy) lines.push(t('stats.sharedBy', { userId: options.sharedBy }));
	return lines.join('\n');
}

/** The service's own totals, each period as it reports it (today and the rolling periods include today). */
const PERIODS = [
	{ key: 'fullDays.today', isToday: true, pick: (s: StatsSnapshot) => [s.sends.today, s.joins.today] },
	{ key: 'embed.fields.last7', isToday: false, pick: (s: StatsSnapshot) => [s.sends.weekly, s.joins.weekly] },
	{ key: 'embed.fields.last30', isToday: false, pick: (s: StatsSnapshot) => [s.sends.monthly, s.joins.monthly] },
	{ key: 'embed.fields.allTime', isToday: false, pick: (s: StatsSnapshot) => [s.sends.allTime, s.joins.allTime] },
] as const satisfies readonly {
	key: MessageKey;
	isToday: boolean;
	pick: (s: StatsSnapshot) => readonly [Figure, Figure];
}[];

/** The comparisons, complete days only; each field names the days it compares. */
const COMPARED = [
	{ key: 'fullDays.last7', period: 'week' },
	{ key: 'fullDays.last30', period: 'month' },
] as const satisfies readonly { key: MessageKey; period: 'week' | 'month' }[];

function buildFields(
	snapshot: StatsSnapshot,
	comparisons: Comparisons | null,
	t: Translate,
	locale: string,
	rangeComparisons?: RangeComparisons | null,
): APIEmbedField[] {
	const fields: APIEmbedField[] = PERIODS.map(({ key, isToday, pick }) => {
		const [sends, joins] = pick(snapshot);
		// Today stands beside yesterday's total, never against it: the day is not over.
		const beside = isToday ? comparisons : null;
		return {
			name: t(key),
			value: [
				todayLine(t, 'sends', formatCount(sends, locale), beside?.sends.day ?? null, locale),
				todayLine(t, 'joins', formatCount(joins, locale), beside?.joins.day ?? null, locale),
			].join('\n'),
			inline: true,
		};
	});
	fields.push({
		name: t('embed.fields.failedSends'),
		value: t('embed.failedSendsValue', {
			value: formatCount(snapshot.sends.failedAllTime, locale),
			share: formatPercent(failureShare(snapshot), locale),
		}),
		inline: true,
	});
	fields.push({
		name: t('embed.fields.conversion'),
		value: t('embed.conversionValue', { value: formatDecimal(joinsPer100Sends(snapshot), locale) }),
		inline: true,
	});
	if (rangeComparisons !== undefined) {
		if (rangeComparisons) fields.push(rangeField(rangeComparisons, t, locale));
	} else if (comparisons) {
		for (const { key, period } of COMPARED) {
			fields.push({
				name: t(key),
				value: [
					changeLine(t, 'sends', comparisons.sends[period], locale),
					changeLine(t, 'joins', comparisons.joins[period], locale),
				].join('\n'),
				inline: true,
			});
		}
	}
	return fields;
}

/** The chosen range's complete days, named, each total with its change against as many days before. */
function rangeField(comparisons: RangeComparisons, t: Translate, locale: string): APIEmbedField {
	const { from, to } = comparisons.sends;
	return {
		name: t('range.compared', { range: formatUtcDateRange(from, to, locale) }),
		value: [changeLine(t, 'sends', comparisons.sends, locale), changeLine(t, 'joins', comparisons.joins, locale)].join(
			'\n',
		),
		inline: false,
	};
}

function todayLine(
	t: Translate,
	metric: 'sends' | 'joins',
	value: string,
	beside: TodayBesideYesterday | null,
	locale: string,
): string {
	if (beside === null) return t(metric === 'sends' ? 'embed.sends' : 'embed.joins', { value });
	const yesterday = formatCount(beside.yesterday, locale);
	return t(metric === 'sends' ? 'fullDays.sendsBesideYesterday' : 'fullDays.joinsBesideYesterday', {
		value,
		yesterday,
	});
}

/** The period's total with its change; an unknown total is a dash alone, its change being unknown too. */
function changeLine(t: Translate, metric: 'sends' | 'joins', comparison: PeriodComparison, locale: string): string {
	const value = formatCount(comparison.current, locale);
	if (comparison.current === null) return t(metric === 'sends' ? 'embed.sends' : 'embed.joins', { value });
	const change = changeText(comparison.change, t, locale);
	return t(metric === 'sends' ? 'embed.sendsWithChange' : 'embed.joinsWithChange', { value, change });
}

/**
 * `▲ +12.5 %`, `▼ −17.2 %`, `■ ±0.0 %`, `★ new` or `—`: the arrow or sign carries the direction, so the line
 * reads without colour. The percentage is rounded first, so a change that shows as 0.0 is never an arrow.
 */
export function changeText(change: Change, t: Translate, locale: string): string {
	if (change.kind === 'unknown') return t('compare.unknown');
	if (change.kind === 'new') return t('compare.new');
	const rounded = Math.round(change.value * 10) / 10;
	const value = formatOneDecimal(Math.abs(rounded), locale);
	if (rounded > 0) return t('compare.up', { value });
	if (rounded < 0) return t('compare.down', { value });
	return t('compare.unchanged', { value });
}

/** Failed sends as a share of all attempts (successful all-time sends + failed); null when unknown or no attempts. */
export function failureShare(snapshot: StatsSnapshot): number | null {
	const { allTime, failedAllTime } = snapshot.sends;
	if (allTime === null || failedAllTime === null) return null;
	const attempts = allTime + failedAllTime;
	return attempts > 0 ? failedAllTime / attempts : null;
}

/** Joins per 100 successful sends over the monthly period; null when unknown or no sends. */
export function joinsPer100Sends(snapshot: StatsSnapshot): number | null {
	const sends = snapshot.sends.monthly;
	const joins = snapshot.joins.monthly;
	if (sends === null || joins === null || sends <= 0) return null;
	return (joins / sends) * 100;
}

/** Epoch ms of an ISO 8601 string, or null when absent or unparsable. */
function parseTimestamp(iso: string | null): number | null {
	if (iso === null) return null;
	const ms = Date.parse(iso);
	return Number.isFinite(ms) ? ms : null;
}

/** Discord renders `<t:SECONDS:STYLE>` in each member's own time zone and language. */
function discordTimestamp(epochMs: number, style: 'f' | 'R' | 't'): string {
	return `<t:${Math.floor(epochMs / 1000)}:${style}>`;
}

/** "5 minutes old" in the reply's language, with its plural rules. */
function ageText(ms: number, t: Translate): string {
	const seconds = Math.max(0, Math.round(ms / 1000));
	if (seconds < 90) return t('embed.age.seconds', { count: seconds });
	if (seconds < 90 * 60) return t('embed.age.minutes', { count: Math.round(seconds / 60) });
	if (seconds < 48 * 3600) return t('embed.age.hours', { count: Math.round(seconds / 3600) });
	return t('embed.age.days', { count: Math.round(seconds / 86400) });
}
