import { time, TimestampStyles } from 'discord.js';
import type { translator } from '../i18n/index.js';
import { describeWatchPause } from '../watch/describe-watch.js';
import type { BoardRecord } from './board-record.js';

/** `sends, 30 days` in the reader's language. */
export function describeBoardView(
	t: ReturnType<typeof translator>,
	record: Pick<BoardRecord, 'days' | 'metric'>,
): string {
	return t('watch.board.view', {
		metric: t(`choices.metric.${record.metric}`),
		days: t(`choices.days.${record.days}`),
	});
}

/** Whether a board is live (with a link to its message), waiting for its first post, or paused and why. */
export function describeBoardState(t: ReturnType<typeof translator>, record: BoardRecord): string {
	if (record.paused) return t('watch.board.paused', { reason: describeWatchPause(t, record.paused) });
	if (record.messageId === null) return t('watch.board.waiting');
	const when = time(Math.floor((record.updatedAt ?? record.createdAt) / 1000), TimestampStyles.RelativeTime);
	return t('watch.board.live', { ...record, when });
}
