// Every minute, the servers marked left whose SERVER_DATA_DAYS have passed: Discord is asked first whether the bot
// is still out (a removal missed while the bot was in fact there must not cost a server its data), then everything
// the server owns is purged, once across processes, and the mark goes with it.
import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import { errorName, type JobLog, type PeriodicJob, type Turn } from '../core/periodic-runner.js';
import { clearServerLeft, markMissingFromReady, type LeftServerActionContext } from './left-server-actions.js';
import { purgeDueAt, type LeftServerRecord } from './left-server-record.js';
import { leftServerStoreOf } from './left-server-store.js';
import type { PrivacyContext } from './privacy-context.js';
import { purgeServer } from './purge-server.js';

export const LEFT_SERVER_EVERY_MS = 60_000;
/** HTTP interactions mode: how often one process across all lists the bot's servers, besides each process's first turn. */
export const GUILD_LIST_EVERY_MS = 6 * 3_600_000;
/** A purge claimed and not finished (its process died) is tried again after this. */
const PURGE_CLAIM_MS = 10 * 60_000;

/** What `GET /guilds/{id}` says: `in` (200), `out` (10004 Unknown Guild or 403), `unknown` (anything else). */
export type BotPresence = 'in' | 'out' | 'unknown';

export interface LeftServerJobDeps {
	ctx: PrivacyContext & LeftServerActionContext & { config: Pick<Config, 'serverDataDays' | 'linkSecret'> };
	/** Asks Discord whether the bot is in the server. */
	presence: (guildId: string) => Promise<BotPresence>;
	/** True for the one caller across every process that first claims `key` (claimOnce). */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	/**
	 * HTTP interactions mode (no gateway tells of a removal): every server the bot is in, from Discord. The job then
	 * marks every stored server missing from it, at its first turn and every GUILD_LIST_EVERY_MS.
	 */
	listGuilds?: (() => Promise<ReadonlySet<string>>) | null;
	/** Epoch ms. */
	now: () => number;
	log: JobLog;
}

/**
 * The claim of one removal's purge. It can outlive the purge, so it carries a keyed hash of the server's id, never
 * the id: a purged server leaves nothing in the store that names it. The removal's time is in the hash too: a server
 * added back and removed again within the claim's life is purged on time, not when the first claim expires.
 */
export const serverPurgeClaimKey = (secret: Buffer, guildId: string, leftAt: number): string =>
	`server-purge:${createHmac('sha256', secret).update(`server-purge:${guildId}:${leftAt}`).digest('hex').slice(0, 32)}`;

export type SettleOutcome = 'notDue' | 'back' | 'postponed' | 'elsewhere' | 'purged';

/** One mark: not due yet, the bot is back (cleared), Discord could not say (later), or purged here or elsewhere. */
export async function settleLeftServer(deps: LeftServerJobDeps, mark: LeftServerRecord): Promise<SettleOutcome> {
	const { ctx, log } = deps;
	if (purgeDueAt(mark, ctx.config.serverDataDays) > deps.now()) return 'notDue';
	const presence = await deps.presence(mark.guildId).catch((): BotPresence => 'unknown');
	if (presence === 'in') {
		await clearServerLeft(ctx, mark.guildId);
		return 'back';
	}
	if (presence === 'unknown') {
		log.warn({ guildId: mark.guildId }, 'server purge postponed: Discord did not say whether the bot is out');
		return 'postponed';
	}
	if (!(await deps.claimOnce(serverPurgeClaimKey(ctx.config.linkSecret, mark.guildId, mark.leftAt), PURGE_CLAIM_MS)))
		return 'elsewhere';
	// Read again under the claim: the bot may have been added back (and the mark cleared) meanwhile.
	const current = await leftServerStoreOf(ctx).get(mark.guildId);
	if (!current || current.leftAt !== mark.leftAt) return 'elsewhere';
	const deleted = await purgeServer(ctx, mark.guildId);
	await leftServerStoreOf(ctx).clear(mark.guildId);
	const records = [...deleted.values()].reduce((sum, count) => sum + count, 0);
	log.info(
		{ guildId: mark.guildId, leftAt: new Date(mark.leftAt).toISOString(), records, kinds: Object.fromEntries(deleted) },
		'server data purged',
	);
	return 'purged';
}

/**
 * Without a gateway, the bot's servers as Discord lists them stand in for READY: a stored server not among them is
 * marked left (the purge still asks Discord first), a listed one's mark is cleared. Each process lists at its first
 * turn (a start-up, as READY would) and, after a list that did not come, at its next turns until one does; beyond
 * that one process across all lists once every GUILD_LIST_EVERY_MS.
 */
function guildListCheck(deps: LeftServerJobDeps): (() => Promise<void>) | null {
	const { listGuilds } = deps;
	if (!listGuilds) return null;
	let owed = true;
	let seenWindow: number | null = null;
	return async () => {
		const window = Math.floor(deps.now() / GUILD_LIST_EVERY_MS);
		if (!owed) {
			if (window === seenWindow) return;
			seenWindow = window;
			if (!(await deps.claimOnce(`left-servers-guild-list:${window}`, GUILD_LIST_EVERY_MS))) return;
		}
		seenWindow = window;
		let guildIds: ReadonlySet<string>;
		try {
			guildIds = await listGuilds();
		} catch (error) {
			owed = true;
			deps.log.warn({ error: errorName(error) }, 'left servers not checked: the list of servers did not come');
			return;
		}
		owed = false;
		const marked = await markMissingFromReady(deps.ctx, [{ shardId: 0, shardCount: 1, guildIds }], 'guildList');
		deps.log.info({ servers: guildIds.size, marked: marked.length }, 'left servers checked against the server list');
	};
}

/** The minute job over every mark; one mark failing leaves the others to go on. */
export function leftServerJob(deps: LeftServerJobDeps): PeriodicJob {
	const checkGuildList = guildListCheck(deps);
	const turn = async (round: Turn) => {
		if (checkGuildList) await checkGuildList();
		for await (const mark of leftServerStoreOf(deps.ctx).list()) {
			if (round.stopping) break;
			try {
				await settleLeftServer(deps, mark);
			} catch (error) {
				deps.log.warn({ guildId: mark.guildId, error: errorName(error) }, 'server purge failed');
			}
		}
	};
	return { name: 'left servers', everyMs: LEFT_SERVER_EVERY_MS, turn, log: deps.log };
}
