import { createHash } from 'node:crypto';
import { translator, type Locale } from '../i18n/index.js';
import type { ChannelMessage } from '../message.js';
import { buildServerReport, type StatsDeps } from '../stats/show-stats.js';
import { embedGoalsFor } from '../goals/goal-embed.js';
import { notesForTarget } from '../notes/note-store.js';
import type { BoardRecord } from './board-record.js';

/** What a board's message shows, and the hash that says whether an edit would change anything. */
export interface BoardPost {
	message: ChannelMessage;
	hash: string;
}

/** Discord timestamps (`<t:1700000000:R>`): they say when the figures were read, not what they are. */
const DISCORD_TIMESTAMP = /<t:-?\d+(?::[tTdDfFR])?>/g;

/**
 * The server account's embed and chart, as `/stats scope:server` and reports draw them, in the server's language,
 * under one line saying that the bot keeps it up to date. Throws as buildServerReport does (no or unusable key).
 */
export async function buildBoardPost(
	deps: StatsDeps,
	record: Pick<BoardRecord, 'guildId' | 'days' | 'metric'>,
	options: { locale: Locale; everyMinutes: number },
): Promise<BoardPost> {
	const reply = await buildServerReport(
		deps,
		record.guildId,
		{ days: record.days, metric: record.metric, locale: options.locale },
		embedGoalsFor(deps, { scope: 'server', userId: '', guildId: record.guildId }),
		notesForTarget(deps, { scope: 'server', userId: '', guildId: record.guildId }),
	);
	const t = translator(options.locale);
	const message: ChannelMessage = {
		content: t('watch.board.post', { minutes: options.everyMinutes }),
		embeds: reply.embeds,
		files: reply.files,
	};
	return { message, hash: boardPostHash(message) };
}

/**
 * The hash of a board's text, embeds and chart bytes, with the time the figures were read left out: a board whose
 * figures stand still is not edited every refresh only to move its clock.
 */
export function boardPostHash(message: ChannelMessage): string {
	const hash = createHash('sha256');
	hash.update(JSON.stringify([message.content ?? '', message.embeds ?? []]).replace(DISCORD_TIMESTAMP, '<t>'));
	for (const file of message.files ?? []) hash.update(file.name).update(file.data);
	return hash.digest('hex');
}
