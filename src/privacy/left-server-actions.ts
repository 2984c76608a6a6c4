// What the bot does when it learns it was removed from a server, or added back: the gateway's GUILD_DELETE (without
// `unavailable`, which is an outage), GUILD_CREATE, and each shard's READY after a start, which lists the shard's
// guilds and so tells of removals that happened while the bot was down.
import type { JobLog } from '../core/periodic-runner.js';
import type { Config } from '../config.js';
import type { LeftServerRecord } from './left-server-record.js';
import { leftServerStoreOf, type LeftServerStoreContext } from './left-server-store.js';
import { storedRecords } from './stored-records.js';
import type { Stores } from '../store/open-stores.js';

export interface LeftServerActionContext extends LeftServerStoreContext {
	stores: Stores;
	config: Pick<Config, 'storeUrl'>;
	log: JobLog;
	/** Epoch ms; default Date.now. */
	now?: () => number;
}

/** What a shard's READY said: the shard and every guild it holds (unavailable ones included). */
export interface ShardReady {
	shardId: number;
	shardCount: number;
	guildIds: ReadonlySet<string>;
}

/** Marks the server left now, unless it already is; the first removal seen counts. */
export async function markServerLeft(
	ctx: LeftServerActionContext,
	guildId: string,
	seenBy: LeftServerRecord['seenBy'],
): Promise<LeftServerRecord> {
	const at = (ctx.now ?? Date.now)();
	const mark = await leftServerStoreOf(ctx).mark(guildId, at, seenBy);
	if (mark.leftAt === at) ctx.log.info({ guildId, seenBy }, 'server marked left');
	return mark;
}

/** The bot is in the server (again): its mark goes and nothing it owns is lost. True when there was one. */
export async function clearServerLeft(ctx: LeftServerActionContext, guildId: string): Promise<boolean> {
	const cleared = await leftServerStoreOf(ctx).clear(guildId);
	if (cleared) ctx.log.info({ guildId }, 'server back: left mark cleared');
	return cleared;
}

/** Discord's shard of a guild: `(guild_id >> 22) % shardCount`; null for an id that is no snowflake. */
export function shardOfGuild(guildId: string, shardCount: number): number | null {
	if (!/^\d{1,20}$/.test(guildId)) return null;
	return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * Every server that owns a data record (key, settings, reports, watches, boards, goals…), a mark excepted: the
 * servers the bot knew. One walk; only the ids are held.
 */
export async function storedServerIds(stores: Stores): Promise<Set<string>> {
	const servers = new Set<string>();
	for await (const { kind, owners } of storedRecords(stores, { once: false })) {
		if (kind.belongsTo !== 'server' || kind.keeping !== 'data' || kind.id === 'serverLeft') continue;
		for (const id of owners.servers) servers.add(id);
	}
	return servers;
}

/**
 * Marks left every stored server of the READY shards that their READY did not list, and clears the mark of every
 * server a READY lists (added back while the bot was down). Each shard judges only its own guilds: another shard's
 * are missing from its READY by design. Returns the servers marked.
 */
export async function markMissingFromReady(
	ctx: LeftServerActionContext,
	readies: readonly ShardReady[],
	seenBy: 'ready' | 'guildList' = 'ready',
): Promise<string[]> {
	if (readies.length === 0) return [];
	for await (const mark of leftServerStoreOf(ctx).list()) {
		if (readies.some((ready) => ready.guildIds.has(mark.guildId))) await clearServerLeft(ctx, mark.guildId);
	}
	const marked: string[] = [];
	for (const guildId of await storedServerIds(ctx.stores)) {
		const ready = readies.find((candidate) => shardOfGuild(guildId, candidate.shardCount) === candidate.shardId);
		if (!ready || ready.guildIds.has(guildId)) continue;
		await markServerLeft(ctx, guildId, seenBy);
		marked.push(guildId);
	}
	return marked;
}

/**
 * Takes the shards' READYs as they come and checks them against the store in the background: the READYs that
 * arrive while a walk runs share the next one, so a start of many shards walks the store a few times, not once each.
 */
export function readyCheck(ctx: LeftServerActionContext): { onReady(ready: ShardReady): void; idle(): Promise<void> } {
	let pending: ShardReady[] = [];
	let running: Promise<void> | null = null;
	const drain = async () => {
		while (pending.length > 0) {
			const batch = pending;
			pending = [];
			try {
				await markMissingFromReady(ctx, batch);
			} catch (error) {
				ctx.log.warn({ error: error instanceof Error ? error.name : typeof error }, 'left servers not checked');
			}
		}
		running = null;
	};
	return {
		onReady: (ready) => {
			// A later READY of the same shard (a new session) replaces one still waiting.
			pending = [...pending.filter((other) => other.shardId !== ready.shardId), ready];
			running ??= drain();
		},
		idle: async () => {
			while (running) await running;
		},
	};
}
