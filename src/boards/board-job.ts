import { createHash } from 'node:crypto';
import { ChannelRefusedError, MessageGoneError } from '../errors.js';
import type { GuildApi } from '../guild-api.js';
import { errorName, type JobLog, type PeriodicJob } from '../core/periodic-runner.js';
import type { ClaimResult } from '../core/claims.js';
import { serverLocale } from '../settings/language.js';
import { pauseAudit } from '../watch/watch-context.js';
import type { WatchPause } from '../watch/watch-record.js';
import type { BoardContext } from './board-context.js';
import { buildBoardPost, type BoardPost } from './board-post.js';
import type { BoardRecord } from './board-record.js';
import { boardStoreOf, type BoardStore } from './board-store.js';

/**
 * How long the claim on one new message keeps every other process from posting it: as long as Discord answers a
 * repeated nonce with the earlier message, so a post retried after the claim expired still cannot make a second one.
 */
export const POST_CLAIM_TTL_MS = 5 * 60_000;

export interface BoardDeps {
	boards: Pick<BoardStore, 'get' | 'update' | 'listAll'>;
	/** The board's message as it should read now; throws when the figures cannot be read. */
	buildPost: (record: BoardRecord) => Promise<BoardPost>;
	guildApi: Pick<GuildApi, 'createMessage' | 'editMessage' | 'messageState'>;
	claim: (key: string, ttlMs: number) => Promise<ClaimResult>;
	/** Called once when a channel's refusal paused the board (the audit line). */
	onPause: (record: BoardRecord, pause: WatchPause) => Promise<void>;
	now: () => number;
	log: JobLog;
}

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
		onPause: pauseAudit(ctx, 'watch.audit.boardPaused'),
		now,
		log: ctx.log,
	};
}

/** The boards' job name: metrics, claims, lateness and the REST budget's label. */
export const BOARD_JOB = 'boards';

/**
 * The board refresh, each board at its server's own offset within BOARD_MINUTES (`everyMs`); every process may run
 * it: each board's turn is claimed once across processes, and its calls draw from the shared REST budget. Any
 * BoardDeps will do (the bench gives its own post builder).
 */
export function boardJob(deps: BoardDeps, everyMs: number): PeriodicJob<BoardRecord> {
	return {
		name: BOARD_JOB,
		everyMs,
		spread: {
			list: () => activeBoards(deps),
			keyOf: (board) => `${board.guildId}:${board.channelId}`,
			spreadBy: (board) => board.guildId,
			claimOnce: async (key, ttlMs) => (await deps.claim(key, ttlMs)).claimed,
		},
		turn: async ({ item: board }) => {
			// The listing may be up to a rescan old: the stored board says whether it is still there and unpaused.
			const current = await deps.boards.get(board.guildId, board.channelId);
			if (current && !current.paused) await refreshBoard(deps, current);
		},
		log: deps.log,
	};
}

async function* activeBoards(deps: BoardDeps): AsyncGenerator<BoardRecord> {
	for await (const record of deps.boards.listAll()) if (!record.paused) yield record;
}

/** What one refresh did: a new message, an edit, nothing to change, a pause, or nothing until the next refresh. */
export type BoardOutcome = 'posted' | 'edited' | 'unchanged' | 'paused' | 'later';

export const boardPostClaimKey = (record: Pick<BoardRecord, 'guildId' | 'channelId' | 'createdAt'>, number: number) =>
	`board-post:${record.guildId}:${record.channelId}:${record.createdAt}:${number}`;

/** The nonce of a board's post number `number`: the same in every process, new for a re-added board. */
export function boardNonce(record: Pick<BoardRecord, 'guildId' | 'channelId' | 'createdAt'>, number: number): string {
	return createHash('sha256')
		.update(`board:${record.guildId}:${record.channelId}:${record.createdAt}:${number}`)
		.digest('hex')
		.slice(0, 25);
}

/**
 * Brings one board's message up to date: edits it when what it shows changed, checks it still exists when not,
 * and posts a new one when there is none (first post, or the old one was deleted). A new message is claimed
 * before it is posted and its id stored before anything edits it, so two processes never make two messages.
 */
export async function refreshBoard(deps: BoardDeps, record: BoardRecord): Promise<BoardOutcome> {
	if (record.paused) return 'paused';
	let post: BoardPost;
	try {
		post = await deps.buildPost(record);
	} catch (error) {
		deps.log.warn({ guildId: record.guildId, board: record.channelId, error: errorName(error) }, 'board not built');
		return 'later';
	}
	try {
		let current: BoardRecord | null = record;
		if (record.messageId !== null) {
			const outcome = await updateMessage(deps, record, record.messageId, post);
			if (outcome !== 'gone') return outcome;
			current = await forgetMessage(deps, record, record.messageId);
		}
		return current ? await postMessage(deps, current, post) : 'later';
	} catch (error) {
		if (!(error instanceof ChannelRefusedError)) {
			deps.log.warn({ guildId: record.guildId, board: record.channelId, error: errorName(error) }, 'board not updated');
			return 'later';
		}
		return pause(deps, record, { reason: error.reason, at: deps.now() });
	}
}

async function updateMessage(
	deps: BoardDeps,
	record: BoardRecord,
	messageId: string,
	post: BoardPost,
): Promise<BoardOutcome | 'gone'> {
	if (post.hash === record.contentHash) {
		const state = await deps.guildApi.messageState(record.channelId, messageId);
		return state === 'deleted' ? 'gone' : 'unchanged';
	}
	try {
		await deps.guildApi.editMessage(record.channelId, messageId, post.message);
	} catch (error) {
		if (error instanceof MessageGoneError) return 'gone';
		throw error;
	}
	await deps.boards.update(record.guildId, record.channelId, (stored) =>
		stored?.messageId === messageId ? { ...stored, contentHash: post.hash, updatedAt: deps.now() } : undefined,
	);
	deps.log.info({ guildId: record.guildId, board: record.channelId }, 'board edited');
	return 'edited';
}

/** Someone deleted the message: the board forgets it, and the next post is a new one. */
async function forgetMessage(deps: BoardDeps, record: BoardRecord, messageId: string): Promise<BoardRecord | null> {
	deps.log.info({ guildId: record.guildId, board: record.channelId }, 'board message deleted');
	return deps.boards.update(record.guildId, record.channelId, (stored) =>
		stored?.messageId === messageId ? { ...stored, messageId: null, contentHash: null } : undefined,
	);
}

async function postMessage(deps: BoardDeps, record: BoardRecord, post: BoardPost): Promise<BoardOutcome> {
	if (record.messageId !== null || record.paused) return 'later';
	const number = record.posts + 1;
	const claim = await deps.claim(boardPostClaimKey(record, number), POST_CLAIM_TTL_MS);
	if (!claim.claimed) return 'later';
	// Another process may have posted and stored this very message just before our claim: read the board again.
	const current = await deps.boards.get(record.guildId, record.channelId);
	if (current?.createdAt !== record.createdAt || current.posts !== record.posts || current.messageId !== null) {
		return 'later';
	}
	const messageId = await deps.guildApi.createMessage(record.channelId, post.message, {
		nonce: boardNonce(record, number),
	});
	await deps.boards.update(record.guildId, record.channelId, (stored) =>
		stored?.createdAt === record.createdAt && stored.posts === record.posts && stored.messageId === null
			? { ...stored, messageId, posts: number, contentHash: post.hash, updatedAt: deps.now() }
			: undefined,
	);
	deps.log.info({ guildId: record.guildId, board: record.channelId, post: number }, 'board posted');
	return 'posted';
}

async function pause(deps: BoardDeps, record: BoardRecord, pause: WatchPause): Promise<BoardOutcome> {
	const paused = await deps.boards.update(record.guildId, record.channelId, (stored) =>
		stored && !stored.paused && stored.createdAt === record.createdAt ? { ...stored, paused: pause } : undefined,
	);
	deps.log.info({ guildId: record.guildId, board: record.channelId, reason: pause.reason }, 'board paused');
	if (paused?.paused === pause) await deps.onPause(paused, pause).catch(() => undefined);
	return 'paused';
}
