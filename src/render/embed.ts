import { escapeMarkdown } from 'discord.js';
import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Figure, StatsResult, StatsSnapshot } from '../stats-api/snapshot.js';
import type { StatsScope } from '../stats/scope.js';
import { fitEmbedToLimits } from './embed-limits.js';
import { formatCount, formatDecimal, formatPercent, resolveLocale, truncate } from './format.js';

/** An account name longer than this is cut before escaping: the name is a label, not content. */
const MAX_ACCOUNT_NAME_LENGTH = 100;
const COLOR_FRESH = 0x5865f2;
const COLOR_STALE = 0xf0b232;
const ZERO_WIDTH_SPACE = '\u200b';

export interface StatsEmbedOptions {
	/** The member's Discord locale (`interaction.locale`); unknown locales fall back to en-US. */
	locale: string;
	days: number;
	scope: StatsScope;
	/** Name of the uploaded chart file; null or absent means the embed carries no image. */
	chartFileName?: string | null;
	/** A short remark about the chart ("Chart unavailable right now."), shown in the description. */
	chartNote?: string | null;
	/** Epoch ms used to state a stale snapshot's age; defaults to Date.now(). */
	now?: number;
}

/** The attachment name for a chart of `days` days: ASCII, no spaces, so `attachment://` matches it exactly. */
export function chartFileName(days: number): string {
	return `stats-${Math.trunc(days)}d.png`;
}

/** Builds the /stats embed (plain JSON); always within Discord's embed limits, whatever the snapshot holds. */
export function buildStatsEmbed(result: StatsResult, options: StatsEmbedOptions): APIEmbed {
	const locale = resolveLocale(options.locale);
	const { snapshot } = result;
	const name = snapshot.meta.user === null ? null : sanitizeAccountName(snapshot.meta.user);

	const embed: APIEmbed = {
		title: name === null ? 'Ad statistics' : `Ad statistics · ${name}`,
		description: buildDescription(result, name, options, locale),
		color: result.isStale ? COLOR_STALE : COLOR_FRESH,
		fields: buildFields(snapshot, locale),
		footer: { text: 'Sends count successful sends. Figures as the stats service reports them.' },
	};
	const generatedAt = parseTimestamp(snapshot.meta.generatedAt);
	if (generatedAt !== null) embed.timestamp = new Date(generatedAt).toISOString();
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

function buildDescription(
	result: StatsResult,
	name: string | null,
	options: StatsEmbedOptions,
	locale: string,
): string {
	const lines: string[] = [];
	// Neutral wording: the same embed is posted publicly by Share, where "your" would mislead.
	const owner = options.scope === 'server' ? "Server's account" : 'Account';
	lines.push(`${owner}: ${name === null ? '—' : `**${name}**`}`);

	const generatedAt = parseTimestamp(result.snapshot.meta.generatedAt);
	lines.push(
		generatedAt === null
			? 'Generated: —'
			: `Generated ${discordTimestamp(generatedAt, 'f')} (${discordTimestamp(generatedAt, 'R')})`,
	);

	if (result.isStale) {
		const age = formatAge((options.now ?? Date.now()) - result.fetchedAt, locale);
		lines.push(
			`⚠️ **Stale:** the stats service is unreachable; showing data from ${discordTimestamp(result.fetchedAt, 'R')} (${age} old).`,
		);
	}
	if (options.chartNote) lines.push(options.chartNote);
	return lines.join('\n');
}

/** One period per field, so a "vs previous period" delta can be added to each value later without reshaping. */
const PERIODS = [
	{ label: 'Today', pick: (s: StatsSnapshot) => [s.sends.today, s.joins.today] },
	{ label: 'Last 7 days', pick: (s: StatsSnapshot) => [s.sends.weekly, s.joins.weekly] },
	{ label: 'Last 30 days', pick: (s: StatsSnapshot) => [s.sends.monthly, s.joins.monthly] },
	{ label: 'All time', pick: (s: StatsSnapshot) => [s.sends.allTime, s.joins.allTime] },
] as const satisfies readonly { label: string; pick: (s: StatsSnapshot) => readonly [Figure, Figure] }[];

function buildFields(snapshot: StatsSnapshot, locale: string): APIEmbedField[] {
	const fields: APIEmbedField[] = PERIODS.map(({ label, pick }) => {
		const [sends, joins] = pick(snapshot);
		return {
			name: label,
			value: `Sends: **${formatCount(sends, locale)}**\nJoins: **${formatCount(joins, locale)}**`,
			inline: true,
		};
	});

	const failed = snapshot.sends.failedAllTime;
	fields.push({
		name: 'Failed sends',
		value: `**${formatCount(failed, locale)}**\n${formatPercent(failureShare(snapshot), locale)} of attempts`,
		inline: true,
	});
	fields.push({
		name: 'Joins per 100 sends',
		value: `**${formatDecimal(joinsPer100Sends(snapshot), locale)}**\nlast 30 days`,
		inline: true,
	});
	return fields;
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

/** The number follows the member's locale; the unit stays English like the sentence around it ("5 minutes old"). */
function formatAge(ms: number, locale: string): string {
	const seconds = Math.max(0, Math.round(ms / 1000));
	const [value, unit] =
		seconds < 90
			? [seconds, 'second']
			: seconds < 90 * 60
				? [Math.round(seconds / 60), 'minute']
				: seconds < 48 * 3600
					? [Math.round(seconds / 3600), 'hour']
					: [Math.round(seconds / 86400), 'day'];
	return `${formatCount(value, locale)} ${value === 1 ? unit : `${unit}s`}`;
}
