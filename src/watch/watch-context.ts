import type { Config } from '../config.js';
import type { GuildApi } from '../guild-api.js';
import type { HistoryStore } from '../history/history-store.js';
import { type FacingMessage, type MessageKey } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import { createPeriodicRunner, startAll, type Clock, type PeriodicJob } from '../core/periodic-runner.js';
import { auditPause } from '../core/pause-to-audit.js';
import { postAudit, auditTime, type AuditDeps } from '../settings/audit.js';
import { serverLocale } from '../settings/language.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { StatsSource } from '../stats-api/client.js';
import { historyWithSnapshot } from '../stats/account-history.js';
import { fetchStatsFor, type FetchDeps } from '../stats/resolve-key.js';
import { claimLock, claimOnce, createKeyedMutex, type Coordinator } from '../core/claims.js';
import type { Stores } from '../store/open-stores.js';
import { storeSchemeOf } from '../store-url.js';
import { alertJob, type AlertDeps } from './alert-job.js';
import { buildAlertPost, describeWatchPause } from './describe-watch.js';
import { statChannelJob, type StatChannelDeps } from './stat-channel-job.js';
import type { AlertFiring, AlertRecord, StatChannelRecord, WatchPause } from './watch-record.js';
import { createWatchStore, type WatchStore } from './watch-store.js';
import { goalStoreOf } from '../goals/goal-store.js';
import { postedEventContext } from '../webhooks/webhook-context.js';
import { queuePostedEvent } from '../webhooks/webhook-events.js';

/** What stat channels and alerts use of the bot's context. */
export interface WatchContext {
	config: Pick<
		Config,
		'storeUrl' | 'historyDays' | 'statChannelMinutes' | 'alertCheckMinutes' | 'historySamplePerMinute'
	>;
	links: FetchDeps['links'];
	stats: StatsSource;
	history: Pick<HistoryStore, 'read'>;
	coordinator: Pick<Coordinator, 'claim'>;
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	settings: Pick<SettingsStore, 'get' | 'forgetDeleted'>;
	guildApi: GuildApi;
	log: Pick<Logger, 'info' | 'warn'>;
}

/** One watch store per opened store, so every command and watcher of a process shares its locks. */
const watchStores = new WeakMap<object, WatchStore>();

export function watchStoreOf(ctx: Pick<WatchContext, 'stores' | 'coordinator' | 'config'>): WatchStore {
	let store = watchStores.get(ctx.stores);
	if (!store) {
		// One process owns a SQLite file: an in-process lock is exact there, and a claim per write would only
		// add writes to the file that the store's own connection is waiting on.
		const shared = storeSchemeOf(ctx.config.storeUrl) !== 'sqlite';
		store = createWatchStore(ctx.stores, shared ? claimLock(ctx.coordinator) : createKeyedMutex());
		watchStores.set(ctx.stores, store);
	}
	return store;
}

/** An audit line about a stat channel or an alert; never throws. */
export async function auditWatch(
	ctx: Pick<WatchContext, 'settings' | 'guildApi' | 'log'>,
	guildId: string,
	line: FacingMessage,
	guildLocale: string | null,
): Promise<void> {
	await postAudit(ctx, guildId, line, { guildLocale });
}

/**
 * What a paused stat channel, alert or board posts to the audit channel: its channel, when and why, plus what
 * `extra` names of the record.
 */
export function pauseAudit<R extends { guildId: string; guildLocale: string | null; channelId: string }>(
	ctx: AuditDeps,
	key: MessageKey,
	extra: (record: R) => Record<string, string> = () => ({}),
): (record: R, pause: WatchPause) => Promise<void> {
	return async (record, pause) =>
		auditPause(ctx, record, (t) => ({
			key,
			vars: {
				...extra(record),
				channelId: record.channelId,
				when: auditTime(pause.at),
				reason: describeWatchPause(t, pause),
			},
		}));
}

const serverTarget = (guildId: string) => ({ scope: 'server' as const, userId: '', guildId });

export function statChannelDeps(ctx: WatchContext, now: () => number): StatChannelDeps {
	return {
		watch: watchStoreOf(ctx),
		fetchServerSnapshot: async (guildId) => (await fetchStatsFor(ctx, serverTarget(guildId))).snapshot,
		language: async (guildId, guildLocale) => serverLocale(ctx, guildId, guildLocale),
		renameChannel: async (channelId, name) => ctx.guildApi.renameChannel(channelId, name),
		onPause: pauseAudit(ctx, 'watch.audit.statChannelPaused'),
		now,
		log: ctx.log,
	};
}

export function alertDeps(ctx: WatchContext, now: () => number): AlertDeps {
	return {
		watch: watchStoreOf(ctx),
		fetchServerSnapshot: async (guildId) => fetchStatsFor(ctx, serverTarget(guildId)),
		historyWith: async (result, at) => historyWithSnapshot(ctx, result, at),
		postFiring: async (record, firing, nonce) => {
			const locale = await serverLocale(ctx, record.guildId, record.guildLocale);
			const post = buildAlertPost(locale, record, firing);
			await ctx.guildApi.postMessage(record.channelId, post, { nonce });
			// The same firing, once, for the server's webhooks: this runs under the firing's claim.
			await queuePostedEvent(
				postedEventContext(ctx, now),
				record.guildId,
				'alert.fired',
				post,
				alertEvent(record, firing),
			);
		},
		onPause: pauseAudit(ctx, 'watch.audit.alertPaused', (record) => ({ id: record.id })),
		claim: async (key, ttlMs) => ctx.coordinator.claim(key, Math.ceil(ttlMs)),
		now,
		log: ctx.log,
		serverGoals: async (guildId) => goalStoreOf(ctx).read({ scope: 'server', guildId }),
	};
}

/** An alert firing's figures as numbers and what it is, for a webhook's body. */
function alertEvent(record: AlertRecord, firing: AlertFiring) {
	const figures: Record<string, number> = { value: firing.value, firing: firing.number, since: firing.since };
	if (!firing.goal) figures.threshold = record.threshold;
	if (firing.goal) {
		figures.progress = firing.goal.progress;
		figures.target = firing.goal.target;
		if (firing.goal.forecast) figures.forecast = firing.goal.forecast.expected;
	}
	return { figures, details: { kind: record.kind, alertId: record.id, channelId: record.channelId } };
}

export interface Watchers {
	/** Stops both loops after the work in flight. */
	stop(): Promise<void>;
}

/** The stat channel refresh and the alert checks; every process may run them: claims make each round run once. */
export function watchJobs(
	ctx: WatchContext,
	clock: Clock,
): readonly [PeriodicJob<StatChannelRecord>, PeriodicJob<string>] {
	return [
		statChannelJob({
			deps: statChannelDeps(ctx, clock.now),
			claimOnce: claimOnce(ctx.coordinator),
			everyMs: ctx.config.statChannelMinutes * 60_000,
		}),
		alertJob({
			deps: alertDeps(ctx, clock.now),
			everyMs: ctx.config.alertCheckMinutes * 60_000,
			setTimer: clock.setTimer,
			perMinute: ctx.config.historySamplePerMinute,
		}),
	];
}

/** The watch jobs on their own, without the other background jobs (a watch-only process, as the tests run). */
export function startWatchers(ctx: WatchContext, clock: Clock): Watchers {
	const [channels, alerts] = watchJobs(ctx, clock);
	return startAll([createPeriodicRunner(channels, clock), createPeriodicRunner(alerts, clock)]);
}
