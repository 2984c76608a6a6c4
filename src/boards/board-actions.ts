// Adding, removing and listing a server's boards: the whole rule, for `/board` and the dashboard alike.
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { isChannelFor } from '../channel-kinds.js';
import { requireServerKey } from '../core/require-server-key.js';
import { UserFacingError } from '../errors.js';
import { translator } from '../i18n/index.js';
import { auditTime } from '../settings/audit.js';
import { DEFAULT_DAYS, DEFAULT_METRIC, isStatsDays, isStatsMetric } from '../stats-options.js';
import { serverLocale } from '../settings/language.js';
import { auditWatch } from '../watch/watch-context.js';
import { channelIdOf, requireBotPermissions, type ChosenChannel, type WatchList } from '../watch/watch-actions.js';
import type { WatchPause } from '../watch/watch-record.js';
import type { BoardContext } from './board-context.js';
import { describeBoardView } from './describe-board.js';
import { BOARD_PERMISSIONS, BOARD_SCHEMA_VERSION, MAX_BOARDS_PER_SERVER, type BoardRecord } from './board-record.js';
import { boardDeps, refreshBoard } from './board-job.js';
import { boardStoreOf } from './board-store.js';

/** `/board add`'s options, or the dashboard's form fields, as given: the action checks every one. */
export interface BoardInput {
	channel: ChosenChannel | null;
	/** Null: 30 days. A form sends text, a slash command a number. */
	days: number | string | null;
	/** Null: sends. */
	metric: string | null;
	/** The server's Discord locale, for the board's language while the server has none set. */
	guildLocale: string | null;
}

/** Where the board stands once added: posted (or edited, when it was there), waiting for a refresh, or paused. */
export type BoardAdded =
	| { state: 'posted'; record: BoardRecord }
	| { state: 'later'; record: BoardRecord }
	| { state: 'paused'; record: BoardRecord; pause: WatchPause };

function readView(input: BoardInput): Pick<BoardRecord, 'days' | 'metric'> {
	const days = input.days === null || input.days === '' ? DEFAULT_DAYS : Number(input.days);
	const metric = input.metric === null || input.metric === '' ? DEFAULT_METRIC : input.metric;
	if (!isStatsDays(days) || !isStatsMetric(metric)) throw new UserFacingError('watch.board.invalidView');
	return { days, metric };
}

/**
 * Makes a channel a board (or changes what an existing one shows, resuming it when paused), posts or edits its
 * message at once and posts the audit line.
 */
export async function addBoard(
	ctx: BoardContext,
	actor: Actor,
	guildId: string,
	input: BoardInput,
): Promise<BoardAdded> {
	requireManageServer(actor, 'board');
	const { channel } = input;
	if (!channel?.id || !isChannelFor('posts', channel.type)) throw new UserFacingError('watch.board.wrongType');
	const view = readView(input);
	// A board shows the server's account: without a readable server key there is nothing to show.
	await requireServerKey(ctx, guildId, 'watch.board.needsServerKey');
	await requireBotPermissions(ctx, guildId, channel.id, BOARD_PERMISSIONS);
	const now = clockOf(ctx);
	const boards = boardStoreOf(ctx);
	// Two admins adding at once must not get past the limit together.
	const record = await boards.withServerLock(guildId, async () => {
		const existing = await boards.listServer(guildId);
		const previous = existing.find((candidate) => candidate.channelId === channel.id) ?? null;
		if (!previous && existing.length >= MAX_BOARDS_PER_SERVER) {
			throw new UserFacingError('watch.board.tooMany', { max: MAX_BOARDS_PER_SERVER });
		}
		const stored = await boards.update(guildId, channel.id, (current) => ({
			v: BOARD_SCHEMA_VERSION,
			guildId,
			channelId: channel.id,
			...view,
			createdBy: actor.userId,
			guildLocale: input.guildLocale,
			paused: null,
			// The board keeps its message: changing what it shows edits it rather than posting another.
			createdAt: current?.createdAt ?? now(),
			messageId: current?.messageId ?? null,
			posts: current?.posts ?? 0,
			contentHash: current?.contentHash ?? null,
			updatedAt: current?.updatedAt ?? null,
		}));
		return stored!;
	});
	await refreshBoard(boardDeps(ctx, now), record);
	const serverT = translator(await serverLocale(ctx, guildId, input.guildLocale));
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.boardAdded',
			vars: {
				actor: auditActor(actor),
				channelId: channel.id,
				view: describeBoardView(serverT, record),
				when: auditTime(now()),
			},
		},
		input.guildLocale,
	);
	const after = (await boards.get(guildId, channel.id)) ?? record;
	if (after.paused) return { state: 'paused', record: after, pause: after.paused };
	return { state: after.messageId === null ? 'later' : 'posted', record: after };
}

/**
 * Removes the board named by `channelText` (`<#id>`, a link or a bare id, so a channel Discord no longer lists
 * can be removed too) and posts the audit line when there was one. Its last message stays in the channel.
 */
export async function removeBoard(
	ctx: BoardContext,
	actor: Actor,
	guildId: string,
	channelText: string | null,
): Promise<{ channelId: string | null; removed: boolean }> {
	requireManageServer(actor, 'board');
	const channelId = channelIdOf(channelText);
	if (channelId === null) return { channelId, removed: false };
	let removed: BoardRecord | null = null;
	await boardStoreOf(ctx).update(guildId, channelId, (current) => {
		removed = current;
		return current === null ? undefined : null;
	});
	const record = removed as BoardRecord | null;
	if (!record) return { channelId, removed: false };
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.boardRemoved',
			vars: { actor: auditActor(actor), channelId, when: auditTime(clockOf(ctx)()) },
		},
		record.guildLocale,
	);
	return { channelId, removed: true };
}

/** The server's boards, paused ones and those in deleted channels included. */
export async function listBoards(ctx: BoardContext, actor: Actor, guildId: string): Promise<WatchList<BoardRecord>> {
	requireManageServer(actor, 'board');
	return {
		records: await boardStoreOf(ctx).listServer(guildId),
		max: MAX_BOARDS_PER_SERVER,
		everyMinutes: ctx.config.boardMinutes,
	};
}
