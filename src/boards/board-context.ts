import type { Config } from '../config.js';
import { translator } from '../i18n/index.js';
import type { Clock, PeriodicRunner } from '../core/periodic-runner.js';
import { auditTime } from '../settings/audit.js';
import type { CoreContext } from '../core/core-context.js';
import { time, TimestampStyles } from 'discord.js';
import { describeWatchPause } from '../watch/describe-watch.js';
import { serverLocale } from '../settings/language.js';
import { auditWatch } from '../watch/watch-context.js';
import { buildBoardPost } from './board-post.js';
import type { BoardRecord } from './board-record.js';
import { refreshBoard, type BoardDeps } from './board-refresh.js';
import { createSpreadJob } from '../core/spread-job.js';
import { boardStoreOf } from './board-store.js';

/** What the board actions and the refresh job use of the core's services; a CoreContext has all of it. */
export type BoardContext = Pick<
	CoreContext,
	'links' | 'stats' | 'history' | 'renderer' | 'coordinator' | 'stores' | 'settings' | 'guildApi' | 'log' | 'now'
> & { config: Pick<Config, 'storeUrl' | 'historyDays' | 'boardMinutes'> };

export function boardDeps(ctx: BoardContext, now: () => number): BoardDeps {
	return {
		boards: boardStoreOf(ctx),
		buildPost: async (record) =>
			buildBoardPost({ ...ctx, now }, record, {
				locale: await serverLocale(ctx, record.guildId, record.guildLocale),
				everyMinutes: ctx.config.boardMinutes,
			}),
		guildApi: ctx.guildApi,
		claim: async (key, ttlMs) => ctx.coordinator.claim(key, Math.ceil(ttlMs)),
		onPause: async (record, pause) => {
			const t = translator(await serverLocale(ctx, record.guildId, record.guildLocale));
			await auditWatch(
				ctx,
				record.guildId,
				{
					key: 'watch.audit.boardPaused',
					vars: { channelId: record.channelId, when: auditTime(pause.at), reason: describeWatchPause(t, pause) },
				},
				record.guildLocale,
			);
		},
		now,
		log: ctx.log,
	};
}

/** The boards' job name: metrics, claims, lateness and the REST budget's label. */
export const BOARD_JOB = 'boards';

/**
 * The board refresh, each board at its server's own offset within BOARD_MINUTES; every process may run it: each
 * board's turn is claimed once across processes, and its calls draw from the shared REST budget.
 */
export function boardRunner(ctx: BoardContext, clock: Clock): PeriodicRunner {
	return createBoardJob(boardDeps(ctx, clock.now), ctx.config.boardMinutes * 60_000, clock);
}

/** The refresh job over any BoardDeps (the bench gives its own post builder). */
export function createBoardJob(deps: BoardDeps, everyMs: number, clock: Clock): PeriodicRunner {
	return createSpreadJob<BoardRecord>({
		job: BOARD_JOB,
		everyMs,
		list: () => activeBoards(deps),
		keyOf: (board) => `${board.guildId}:${board.channelId}`,
		spreadBy: (board) => board.guildId,
		serve: async (board) => {
			// The listing may be up to a rescan old: the stored board says whether it is still there and unpaused.
			const current = await deps.boards.get(board.guildId, board.channelId);
			if (current && !current.paused) await refreshBoard(deps, current);
		},
		claimOnce: async (key, ttlMs) => (await deps.claim(key, ttlMs)).claimed,
		clock,
		log: deps.log,
	});
}

async function* activeBoards(deps: BoardDeps): AsyncGenerator<BoardRecord> {
	for await (const record of deps.boards.listAll()) if (!record.paused) yield record;
}

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
