import { formatNumber, translator, type Locale } from '../i18n/index.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import type { StatFigure } from './watch-record.js';

/** Discord's limit on a channel name. */
export const MAX_CHANNEL_NAME_LENGTH = 100;

/** The figure's value in a snapshot; null when the endpoint left it out. */
export function figureValue(snapshot: StatsSnapshot, figure: StatFigure): number | null {
	const [what, period] = figure.split('-') as ['sends' | 'joins', 'today' | 'week' | 'month' | 'all'];
	const figures = snapshot[what];
	if (period === 'today') return figures.today;
	if (period === 'week') return figures.weekly;
	if (period === 'month') return figures.monthly;
	return figures.allTime;
}

/** `Sends today: 1,234` in the server's language, at most 100 characters; an unknown figure reads `—`. */
export function statChannelName(locale: Locale, figure: StatFigure, snapshot: StatsSnapshot): string {
	const value = figureValue(snapshot, figure);
	const number = value === null ? '—' : formatNumber(locale, value);
	const name = translator(locale)('watch.statChannel.name', {
		label: translator(locale)(`watch.figures.${figure}`),
		number,
	});
	return [...name].slice(0, MAX_CHANNEL_NAME_LENGTH).join('');
}
