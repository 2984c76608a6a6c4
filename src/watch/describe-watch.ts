import { time, TimestampStyles } from 'discord.js';
import { formatNumber, translator, type Locale, type Translate } from '../i18n/index.js';
import type { ChannelMessage } from '../message.js';
import { buildGoalAlertPost } from '../goals/goal-alert-post.js';
import type { AlertFiring, AlertRecord, StatFigure, WatchPause } from './watch-record.js';

const PERCENT_KINDS = new Set(['failed-share', 'sends-drop']);
/** Amber: an alert is news, not an error. */
const ALERT_COLOUR = 0xf0a020;

/** A threshold or value as the kind counts it: a percentage with at most one decimal, or a whole number. */
export function formatAlertNumber(locale: Locale, value: number): string {
	return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
}

export function describeFigure(t: Translate, figure: StatFigure): string {
	return t(`watch.figures.${figure}`);
}

/** `failed sends at 10 % or more of today's attempts` in the reader's language. */
export function describeRule(t: Translate, locale: Locale, alert: Pick<AlertRecord, 'kind' | 'threshold'>): string {
	return t(`watch.rules.${alert.kind}`, { threshold: formatAlertNumber(locale, alert.threshold) });
}

export function describeWatchPause(t: Translate, pause: WatchPause): string {
	return t(`watch.paused.${pause.reason}`);
}

/** What `/alert list` says of an alert's state. */
export function describeAlertState(t: Translate, alert: AlertRecord): string {
	if (alert.paused) return t('watch.alert.state.paused', { reason: describeWatchPause(t, alert.paused) });
	const when =
		alert.state.firedAt === null ? '' : time(Math.floor(alert.state.firedAt / 1000), TimestampStyles.RelativeTime);
	if (alert.kind.endsWith('milestone') && alert.state.firings > 0) return t('watch.alert.state.reached', { when });
	if (!alert.state.armed && alert.state.firings > 0) return t('watch.alert.state.fired', { when });
	if (alert.state.notEnoughData) return t('watch.alert.state.notEnoughData');
	return t('watch.alert.state.armed');
}

/** The post of one firing, in the server's language: the figure, the threshold, the value now, since when. */
export function buildAlertPost(locale: Locale, alert: AlertRecord, firing: AlertFiring): ChannelMessage {
	if (alert.kind === 'goal-reached' || alert.kind === 'goal-at-risk') {
		return buildGoalAlertPost(locale, { id: alert.id, kind: alert.kind }, firing);
	}
	const t = translator(locale);
	const value =
		PERCENT_KINDS.has(alert.kind) || alert.kind === 'no-sends'
			? formatAlertNumber(locale, firing.value)
			: formatNumber(locale, firing.value);
	const threshold = formatAlertNumber(locale, alert.threshold);
	const unit = PERCENT_KINDS.has(alert.kind) ? ' %' : '';
	const kind = t(`watch.kinds.${alert.kind}`);
	return {
		embeds: [
			{
				title: t('watch.alert.post.title', { kind }),
				description: t(`watch.alert.post.${alert.kind}`, { value, threshold }),
				color: ALERT_COLOUR,
				fields: [
					{ name: t('watch.alert.post.figure'), value: kind, inline: true },
					{ name: t('watch.alert.post.threshold'), value: `${threshold}${unit}`, inline: true },
					{ name: t('watch.alert.post.value'), value: `${value}${unit}`, inline: true },
					{
						name: t('watch.alert.post.since'),
						value: time(Math.floor(firing.since / 1000), TimestampStyles.LongDateTime),
						inline: true,
					},
				],
				footer: { text: `${alert.id}` },
				timestamp: new Date(firing.at).toISOString(),
			},
		],
	};
}
