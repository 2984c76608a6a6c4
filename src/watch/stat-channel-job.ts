import { ChannelRefusedError, RenameRateLimitedError } from '../errors.js';
import type { GuildApi } from '../guild-api.js';
import type { Locale } from '../i18n/index.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { errorName, type JobLog, type PeriodicJob } from '../core/periodic-runner.js';
import { nextRenameAt, spendRename } from './rename-budget.js';
import { statChannelName } from './stat-name.js';
import type { StatChannelRecord, WatchPause } from './watch-record.js';
import type { WatchStore } from './watch-store.js';

/** A rename in flight longer than this is taken as lost (its process died), and may be sent again. */
const PENDING_RENAME_MS = 60_000;
/** Channels refreshed at once: one slow server or channel holds back only its own slot. */
const REFRESH_CONCURRENCY = 4;

export interface StatChannelDeps {
	watch: Pick<WatchStore, 'statChannels'>;
	/** The server account's snapshot through the shared stats client; throws as `/stats scope:server` would. */
	fetchServerSnapshot: (guildId: string) => Promise<StatsSnapshot>;
	/** The language of the server's public posts. */
	language: (guildId: string, guildLocale: string | null) => Promise<Locale>;
	renameChannel: GuildApi['renameChannel'];
	/** Called once when a channel's refusal paused it (the audit line). */
	onPause: (record: StatChannelRecord, pause: WatchPause) => Promise<void>;
	now: () => number;
	log: JobLog;
}

/**
 * What one refresh did: renamed; nothing to do (the name is current); waiting (the rename budget or a 429
 * says not yet: a later refresh sends it); paused (Discord refused the bot there); skipped (removed or
 * paused meanwhile); failed (no snapshot, or Discord failed otherwise: the next refresh tries again).
 */
export type RefreshOutcome = 'renamed' | 'unchanged' | 'waiting' | 'paused' | 'skipped' | 'failed';

/**
 * Brings one stat channel's name up to date. The rename budget lives in the record and is spent, under the
 * record's lock, before the rename is sent: every process sees it, so no channel is ever sent a third
 * rename within Discord's window, and a 429 blocks it in the store until its `retry_after` has passed.
 */
export async function refreshStatChannel(deps: StatChannelDeps, record: StatChannelRecord): Promise<RefreshOutcome> {
	const { guildId, channelId } = record;
	if (record.paused) return 'skipped';
	let name: string;
	try {
		const snapshot = await deps.fetchServerSnapshot(guildId);
		name = statChannelName(await deps.language(guildId, record.guildLocale), record.figure, snapshot);
	} catch (error) {
		deps.log.warn({ guildId, channelId, error: errorName(error) }, 'stat channel figure not read');
		return 'failed';
	}
	const now = deps.now();
	let decision = 'skipped' as RefreshOutcome | 'rename';
	await deps.watch.statChannels.update(guildId, channelId, (current) => {
		if (!current || current.paused) return undefined;
		if (current.name === name) {
			decision = 'unchanged';
			return undefined;
		}
		if (current.pending?.name === name && now - current.pending.at < PENDING_RENAME_MS) {
			decision = 'unchanged';
			return undefined;
		}
		if (nextRenameAt(current, now) > now) {
			decision = 'waiting';
			return undefined;
		}
		decision = 'rename';
		return spendRename({ ...current, pending: { name, at: now } }, now);
	});
	if (decision !== 'rename') return decision;

	const settle = async (change: (current: StatChannelRecord) => StatChannelRecord) =>
		deps.watch.statChannels.update(guildId, channelId, (current) => (current ? change(current) : undefined));
	try {
		await deps.renameChannel(channelId, name);
	} catch (error) {
		if (error instanceof RenameRateLimitedError) {
			const until = deps.now() + error.retryAfterMs;
			await settle((current) => ({ ...current, pending: null, blockedUntil: Math.max(current.blockedUntil, until) }));
			deps.log.info({ guildId, channelId, retryAfterMs: error.retryAfterMs }, 'stat channel rename rate limited');
			return 'waiting';
		}
		if (error instanceof ChannelRefusedError) {
			const pause: WatchPause = { reason: error.reason, at: deps.now() };
			const paused = await settle((current) => ({ ...current, pending: null, paused: current.paused ?? pause }));
			deps.log.info({ guildId, channelId, reason: error.reason }, 'stat channel paused');
			if (paused?.paused === pause) await deps.onPause(paused, pause).catch(() => undefined);
			return 'paused';
		}
		await settle((current) => ({ ...current, pending: null }));
		deps.log.warn({ guildId, channelId, error: errorName(error) }, 'stat channel not renamed');
		return 'failed';
	}
	await settle((current) => ({ ...current, pending: null, name }));
	return 'renamed';
}

export interface StatChannelJobOptions {
	deps: StatChannelDeps & { watch: Pick<WatchStore, 'statChannels'> };
	/** True for the one caller, across every process sharing the store, that first claims `key`. */
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	/** STAT_CHANNEL_MINUTES in ms. */
	everyMs: number;
}

/** The stat channels' job name: metrics, claims and the REST budget's label. */
export const STAT_CHANNEL_JOB = 'statchannels';

/**
 * Refreshes every stat channel each STAT_CHANNEL_MINUTES, each at its server's own offset inside the interval.
 * Every process runs one; each channel's slot is claimed in the store, so one process refreshes it; when the
 * REST budget cannot rename them all in an interval, each is refreshed less often, in turn.
 */
export function statChannelJob(options: StatChannelJobOptions): PeriodicJob<StatChannelRecord> {
	const { deps } = options;
	return {
		name: STAT_CHANNEL_JOB,
		everyMs: options.everyMs,
		spread: {
			list: async () => {
				const active: StatChannelRecord[] = [];
				for await (const record of deps.watch.statChannels.listAll()) if (!record.paused) active.push(record);
				return active;
			},
			keyOf: (record) => `${record.guildId}:${record.channelId}`,
			spreadBy: (record) => record.guildId,
			claimOnce: options.claimOnce,
			concurrency: REFRESH_CONCURRENCY,
		},
		turn: async ({ item: record }) => {
			try {
				await refreshStatChannel(deps, record);
			} catch (error) {
				deps.log.warn(
					{ guildId: record.guildId, channelId: record.channelId, error: errorName(error) },
					'stat channel refresh failed',
				);
			}
		},
		log: deps.log,
	};
}
