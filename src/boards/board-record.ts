import type { BotPermission } from '../permissions.js';
import { isStatsDays, isStatsMetric, type StatsDays, type StatsMetric } from '../stats-options.js';
import type { WatchPause } from '../watch/watch-record.js';
import { BOARD_PREFIX } from '../core/record-kinds.js';

export const MAX_BOARDS_PER_SERVER = 3;
export const BOARD_SCHEMA_VERSION = 1;

/** A board posts the stats embed with its chart, as a report does. */
export const BOARD_PERMISSIONS = [
	'viewChannel',
	'sendMessages',
	'embedLinks',
	'attachFiles',
	// To read the message back when nothing changed, and so notice it was deleted at the next refresh.
	'readMessageHistory',
] as const satisfies readonly BotPermission[];

/** One board: the channel it lives in, what it shows, and the message the bot keeps editing there. */
export interface BoardRecord {
	v: typeof BOARD_SCHEMA_VERSION;
	guildId: string;
	channelId: string;
	days: StatsDays;
	metric: StatsMetric;
	createdBy: string;
	/** Epoch ms of the add (or re-add): names the board's posts, so a re-added board never reuses an old nonce. */
	createdAt: number;
	/** The server's Discord locale when it was added, for the board's language while the server has none set. */
	guildLocale: string | null;
	paused: WatchPause | null;
	/** The message the bot edits; null before the first post and after it was found deleted. */
	messageId: string | null;
	/**
	 * Posts so far, counting the one in flight: a new message (first post, or after a deletion) is claimed as
	 * post number `posts`, so two processes can never both post the same one.
	 */
	posts: number;
	/** The hash of what the message shows now (BoardPost.hash); null before the first post. */
	contentHash: string | null;
	/** Epoch ms of the last post or edit. */
	updatedAt: number | null;
}

export const boardKey = (guildId: string, channelId: string): string => `${BOARD_PREFIX}${guildId}:${channelId}`;
export const boardPrefix = (guildId?: string): string => `${BOARD_PREFIX}${guildId === undefined ? '' : `${guildId}:`}`;

/** A stored value back into a record; null for anything that is not one of ours. */
export function parseBoardRecord(raw: unknown): BoardRecord | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const record = raw as Partial<BoardRecord>;
	if (record.v !== BOARD_SCHEMA_VERSION || !isStatsDays(record.days) || !isStatsMetric(record.metric)) return null;
	if (typeof record.guildId !== 'string' || typeof record.channelId !== 'string') return null;
	if (typeof record.posts !== 'number') return null;
	return record as BoardRecord;
}
