// The manage page's Boards section: the list with each board's state, the add form (`/board add`'s options) and
// a remove button per row.
import { describeBoardState, describeBoardView } from '../../boards/describe-board.js';
import type { BoardRecord } from '../../boards/board-record.js';
import type { Locale, Translate } from '../../i18n/index.js';
import { DEFAULT_DAYS, DEFAULT_METRIC, STATS_DAYS, STATS_METRICS } from '../../stats-options.js';
import type { WatchList } from '../../watch/watch-actions.js';
import type { ChannelFacts } from '../bot-guilds.js';
import { channelSelect, select } from './form-controls.js';
import { discordTextToHtml, html, type MentionNames, type SafeHtml } from '../html.js';
import { listOrEmpty, type ListRow } from './manage-lists.js';

export interface BoardsSectionData {
	t: Translate;
	locale: Locale;
	now: number;
	/** Where the section's forms post: `/servers/{id}/boards` with the page's language query. */
	action: string;
	channels: readonly ChannelFacts[];
	names: MentionNames;
	boards: WatchList<BoardRecord>;
}

export function boardsManageSection(page: BoardsSectionData): SafeHtml {
	const { t, boards } = page;
	const discord = (words: string) =>
		discordTextToHtml(words, { names: page.names, locale: page.locale, now: page.now });
	const rows = boards.records.map((record): ListRow => ({
		id: record.channelId,
		field: 'channel',
		value: record.channelId,
		title: { words: discord(t('settings.value.channel', { channelId: record.channelId })) },
		details: [
			{ words: html`${describeBoardView(t, record)}` },
			{ words: stateHtml(describeBoardState(t, record), discord), sentence: true },
		],
	}));
	return html`<section id="boards" class="manage">
		<h2>${t('web.manage.boardsTitle')}</h2>
		${listOrEmpty(
			t,
			{ name: 'boards', action: page.action },
			discord(
				t('watch.board.listHeader', { count: boards.records.length, max: boards.max, minutes: boards.everyMinutes }),
			),
			'web.manage.boardsEmpty',
			rows,
		)}
		<form method="post" action="${page.action}">
			<h3>${t('web.manage.boardAdd')}</h3>
			${channelSelect(t, page.channels, { id: 'board-channel', label: t('watch.commands.board.addChannel'), use: 'posts' })}
			${select(
				'board-days',
				'days',
				t('watch.commands.board.addDays'),
				STATS_DAYS.map((days) => ({ value: String(days), label: t(`choices.days.${days}`) })),
				String(DEFAULT_DAYS),
			)}
			${select(
				'board-metric',
				'metric',
				t('watch.commands.board.addMetric'),
				STATS_METRICS.map((metric) => ({ value: metric, label: t(`choices.metric.${metric}`) })),
				DEFAULT_METRIC,
			)}
			<p><button type="submit">${t('web.manage.boardAddButton')}</button></p>
		</form>
	</section>`;
}

/** The live state's `[its message](https://discord.com/…)` as a link the page can follow; the rest as Discord text. */
function stateHtml(words: string, discord: (words: string) => SafeHtml): SafeHtml {
	const link = /^\[([^\]]+)\]\((https:\/\/discord\.com\/channels\/[\d/]+)\)(.*)$/su.exec(words);
	if (!link) return discord(words);
	return html`<a href="${link[2]}">${link[1]}</a>${discord(link[3] ?? '')}`;
}
