import { time, TimestampStyles } from 'discord.js';
import { translator, type Locale } from '../i18n/index.js';
import type { ChannelMessage } from '../message.js';
import { formatCount } from '../render/format.js';
import { describeGoalName } from './describe-goal.js';
import type { GoalFiringFigures } from './goal-alert-rules.js';

/** Green for a goal reached, amber for one at risk. */
const COLOURS = { 'goal-reached': 0x3ba55c, 'goal-at-risk': 0xf0a020 } as const;

/** The post of a goal alert in the server's language: the goal, the figure, the target and the forecast. */
export function buildGoalAlertPost(
	locale: Locale,
	alert: { id: string; kind: 'goal-reached' | 'goal-at-risk' },
	firing: { goal?: GoalFiringFigures; since: number; at: number },
): ChannelMessage {
	const t = translator(locale);
	const goal = firing.goal;
	const kind = t(`watch.kinds.${alert.kind}`);
	const count = (value: number) => formatCount(Math.round(value), locale);
	const fields = [];
	let description = kind;
	if (goal) {
		const name = describeGoalName(t, goal);
		const forecast = goal.forecast;
		const vars = {
			goal: name,
			value: count(goal.progress),
			target: count(goal.target),
			expected: forecast ? count(forecast.expected) : '—',
			low: forecast ? count(forecast.low) : '—',
			high: forecast ? count(forecast.high) : '—',
		};
		description = t(alert.kind === 'goal-reached' ? 'goal.alert.reached' : 'goal.alert.atRisk', vars);
		fields.push(
			{ name: t('watch.alert.post.figure'), value: name, inline: true },
			{ name: t('goal.alert.target'), value: vars.target, inline: true },
			{ name: t('watch.alert.post.value'), value: vars.value, inline: true },
		);
		if (forecast) {
			fields.push({
				name: t('goal.alert.forecast'),
				value: t('goal.onPace', { expected: vars.expected, low: vars.low, high: vars.high }),
				inline: true,
			});
		}
	}
	fields.push({
		name: t('watch.alert.post.since'),
		value: time(Math.floor(firing.since / 1000), TimestampStyles.LongDateTime),
		inline: true,
	});
	return {
		embeds: [
			{
				title: t('watch.alert.post.title', { kind }),
				description,
				color: COLOURS[alert.kind],
				fields,
				footer: { text: alert.id },
				timestamp: new Date(firing.at).toISOString(),
			},
		],
	};
}
