import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Config } from '../config.js';
import { changeBetween, comparePeriods, type PeriodComparison } from '../history/compare.js';
import { addDays, utcDateOf } from '../history/utc-days.js';
import { resolveLocale, translator, type Locale, type Translate } from '../i18n/index.js';
import type { ChannelMessage } from '../message.js';
import { changeText, sanitizeAccountName } from '../render/embed.js';
import { fitEmbedToLimits } from '../render/embed-limits.js';
import { formatCount, formatDecimal, formatUtcDateRange } from '../render/format.js';
import { historyWithSnapshot } from '../stats/account-history.js';
import { renderStatsChart } from '../stats/chart-view.js';
import { notesForTarget } from '../notes/note-store.js';
import type { CoreContext } from '../core/core-context.js';
import { fetchStatsFor } from '../stats/resolve-key.js';
import type { DigestRecord } from './digest-record.js';
import { digestGoalFields } from './digest-goals.js';
import { describeDigestSchedule } from './describe-digest.js';

/** What building a digest reads: the member's link and figures, the history, the chart renderer, their goals. */
export type DigestBuildContext = Pick<
	CoreContext,
	'links' | 'stats' | 'history' | 'renderer' | 'stores' | 'coordinator' | 'log'
> & {
	config: Pick<Config, 'storeUrl' | 'historyDays' | 'webPublicUrl'>;
};

const COLOR = 0x5865f2;
/** The chart of the month, whatever the member's `/stats` default: a weekly look back wants the trend around it. */
const CHART_DAYS = 30;

/**
 * The weekly direct message, in the member's last seen locale: the 7 complete UTC days to yesterday against the 7
 * before (sends, joins, joins per 100 sends, as the `/stats` embed compares them), their goals, a 30-day chart, and
 * the dashboard's `/me` when the dashboard is configured. Throws what fetching the member's figures throws
 * (UserFacingError `stats.noUserLink` when they unlinked, KeyRejectedError when the key stopped working).
 */
export async function buildDigestMessage(
	ctx: DigestBuildContext,
	record: Pick<DigestRecord, 'userId' | 'locale' | 'weekday' | 'hour' | 'timezone'>,
	now: number,
): Promise<ChannelMessage> {
	const locale = resolveLocale(record.locale);
	const t = translator(locale);
	const target = { scope: 'me', userId: record.userId, guildId: null } as const;
	const result = await fetchStatsFor(ctx, target);
	const history = await historyWithSnapshot(ctx, result, now);
	const today = utcDateOf(now);
	const account = result.snapshot.meta.user;
	const chart = await renderStatsChart(ctx, history, {
		metric: 'sends',
		days: CHART_DAYS,
		scope: 'me',
		locale,
		accountName: account,
		today,
		// The member's own notes: a digest shows their own account.
		notes: await notesForTarget(ctx, target),
	});
	const { sends, joins } = comparePeriods(history, result.snapshot, today);
	const range = formatUtcDateRange(sends.week.from, sends.week.to, locale);
	const previous = formatUtcDateRange(addDays(sends.week.from, -7), addDays(sends.week.from, -1), locale);
	const description = [
		account === null ? t('embed.accountUnknown') : t('embed.account', { account: sanitizeAccountName(account) }),
		t('digest.dm.period', { range, previous }),
		...chart.notes,
	];
	if (ctx.config.webPublicUrl) description.push(t('digest.dm.dashboard', { url: `${ctx.config.webPublicUrl}/me` }));
	const embed: APIEmbed = {
		title: t('digest.dm.title'),
		description: description.join('\n'),
		color: COLOR,
		fields: [
			comparisonField(t, locale, 'digest.dm.sends', sends.week),
			comparisonField(t, locale, 'digest.dm.joins', joins.week),
			conversionField(t, locale, sends.week, joins.week),
			...(await digestGoalFields(ctx, record.userId, history, now, locale)),
		],
		footer: { text: t('digest.dm.footer', { schedule: describeDigestSchedule(t, record) }) },
	};
	if (chart.fileName) embed.image = { url: `attachment://${chart.fileName}` };
	const files =
		chart.png && chart.fileName ? [{ name: chart.fileName, data: chart.png, contentType: 'image/png' }] : [];
	return { content: t('digest.dm.content', { range }), embeds: [fitEmbedToLimits(embed)], files };
}

type ComparisonKey = 'digest.dm.sends' | 'digest.dm.joins';

function comparisonField(t: Translate, locale: Locale, name: ComparisonKey, week: PeriodComparison): APIEmbedField {
	return {
		name: t(name),
		value: t('digest.dm.value', {
			value: formatCount(week.current, locale),
			previous: formatCount(week.previous, locale),
			change: changeText(week.change, t, locale),
		}),
		inline: true,
	};
}

/** Joins per 100 sends in each week; unknown when either figure of a week is. */
function conversionField(
	t: Translate,
	locale: Locale,
	sends: PeriodComparison,
	joins: PeriodComparison,
): APIEmbedField {
	const per100 = (joinCount: number | null, sendCount: number | null) =>
		joinCount === null || sendCount === null || sendCount <= 0 ? null : (joinCount / sendCount) * 100;
	const current = per100(joins.current, sends.current);
	const previous = per100(joins.previous, sends.previous);
	return {
		name: t('digest.dm.conversion'),
		value: t('digest.dm.value', {
			value: formatDecimal(current, locale),
			previous: formatDecimal(previous, locale),
			change: changeText(changeBetween(current, previous), t, locale),
		}),
		inline: true,
	};
}
