// A goal in words: the embed field of /stats and reports, the lines of /goal show, the dashboard's table.
import { resolveLocale, translator, type Translate } from '../i18n/index.js';
import { formatCount, formatUtcDate } from '../render/format.js';
import type { GoalFigures } from './goal-figures.js';
import type { Goal } from './goal-record.js';

/** `sends this month` … in the reader's language. */
export function describeGoalName(t: Translate, goal: Pick<Goal, 'metric' | 'period'>): string {
	return t(`goal.what.${goal.metric}.${goal.period}`);
}

/** The share of the target reached, in whole percent, never shown as 100 before the target is reached. */
export function goalPercent(figures: Pick<GoalFigures, 'progress' | 'target'>): number {
	return Math.floor((figures.progress / figures.target) * 100);
}

/** `12,604 / 20,000 (63 %)` and where it is heading: `on pace for 19,540 (18,900–20,200)`, or when a forecast comes. */
export function describeGoalFigures(locale: string, figures: GoalFigures): { progress: string; outlook: string } {
	const t = translator(resolveLocale(locale));
	const count = (value: number) => formatCount(Math.round(value), locale);
	const progress = t('goal.progress', {
		progress: count(figures.progress),
		target: count(figures.target),
		percent: formatCount(goalPercent(figures), locale),
	});
	const outlook = figures.forecast
		? t('goal.onPace', {
				expected: count(figures.forecast.expected),
				low: count(figures.forecast.low),
				high: count(figures.forecast.high),
			})
		: t('goal.forecastFrom', { date: formatUtcDate(figures.forecastFrom ?? figures.end, locale) });
	return { progress, outlook };
}

/** One goal as an embed field: `Goal: sends this month` and its figures, in the reply's language. */
export function describeGoal(locale: string, figures: GoalFigures): { name: string; value: string } {
	const t = translator(resolveLocale(locale));
	const { progress, outlook } = describeGoalFigures(locale, figures);
	return {
		name: t('goal.fieldName', { goal: describeGoalName(t, figures) }),
		value: t('goal.fieldValue', { progress, outlook }),
	};
}
