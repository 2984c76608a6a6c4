import { createHash } from 'node:crypto';
import { ChannelRefusedError } from '../errors.js';
import type { HistoryRecord } from '../history/record.js';
import type { ClaimResult } from '../core/claims.js';
import type { StatsResult } from '../stats-api/snapshot.js';
import { evaluateAlert } from './alert-rules.js';
import { errorName, type JobLog, type PeriodicJob, type SetTimer } from '../core/periodic-runner.js';
import { GOAL_ALERT_KINDS, type AlertFiring, type AlertRecord, type WatchPause } from './watch-record.js';
import type { Goal } from '../goals/goal-record.js';
import type { WatchStore } from './watch-store.js';

/**
 * How long a firing's claim keeps every other process from posting it. A holder that dies leaves the firing
 * pending in the record; once the claim expires the next evaluation, in any process, posts it.
 */
export const FIRING_CLAIM_TTL_MS = 5 * 60_000;
const SERVER_CONCURRENCY = 4;

export interface AlertDeps {
	watch: Pick<WatchStore, 'alerts'>;
	/** The server account's snapshot through the shared stats client (cache and single flight). */
	fetchServerSnapshot: (guildId: string) => Promise<StatsResult>;
	/** The account's history with the snapshot folded in. */
	historyWith: (result: StatsResult, now: number) => Promise<HistoryRecord>;
	/** Posts one firing in the alert's channel with `nonce`; rejects with ChannelRefusedError when refused. */
	postFiring: (record: AlertRecord, firing: AlertFiring, nonce: string) => Promise<void>;
	/** Called once when a channel's refusal paused the alert (the audit line). */
	onPause: (record: AlertRecord, pause: WatchPause) => Promise<void>;
	claim: (key: string, ttlMs: number) => Promise<ClaimResult>;
	now: () => number;
	log: JobLog;
	/** The server's goals, read when it has a goal alert. */
	serverGoals?: (guildId: string) => Promise<Goal[]>;
}

export const alertFiringClaimKey = (record: Pick<AlertRecord, 'guildId' | 'id'>, number: number) =>
	`alert-firing:${record.guildId}:${record.id}:${number}`;

/** The nonce of a firing's post: Discord keeps one message per nonce for a few minutes. */
export function alertNonce(record: Pick<AlertRecord, 'guildId' | 'id'>, number: number): string {
	return createHash('sha256').update(`alert:${record.guildId}:${record.id}:${number}`).digest('hex').slice(0, 25);
}

/**
 * Evaluates one server's alerts on one snapshot and posts what fired. The decision is stored first (the firing
 * pending in the record, under the record's lock, so two evaluators cannot both fire), then posted under a
 * claim per alert and firing, then marked posted: at most one post per firing, and none lost when a process
 * dies in between.
 */
export async function checkServerAlerts(deps: AlertDeps, guildId: string): Promise<void> {
	const alerts = (await deps.watch.alerts.listServer(guildId)).filter((record) => !record.paused);
	if (alerts.length === 0) return;
	let observation: { result: StatsResult; history: HistoryRecord; goals: Goal[] } | null = null;
	try {
		const watchesGoals = alerts.some((alert) => GOAL_ALERT_KINDS.includes(alert.kind));
		const goals = watchesGoals && deps.serverGoals ? deps.serverGoals(guildId) : Promise.resolve([]);
		const result = await deps.fetchServerSnapshot(guildId);
		observation = { result, history: await deps.historyWith(result, deps.now()), goals: await goals };
	} catch (error) {
		deps.log.warn({ guildId, error: errorName(error) }, 'alert figures not read');
	}
	for (const alert of alerts) {
		let current: AlertRecord | null = alert;
		if (observation && !observation.result.isStale) {
			const { result, history, goals } = observation;
			current = await deps.watch.alerts.update(guildId, alert.id, (stored) => {
				// A firing still to post goes first; the rule moves on at the next evaluation.
				if (!stored || stored.paused || stored.state.pending) return undefined;
				const now = deps.now();
				const { state } = evaluateAlert(stored, stored.state, { now, snapshot: result.snapshot, history, goals });
				return { ...stored, state };
			});
		}
		if (current?.state.pending && !current.paused) await postPending(deps, current);
	}
}

async function postPending(deps: AlertDeps, record: AlertRecord): Promise<void> {
	const firing = record.state.pending;
	if (!firing) return;
	const claim = await deps.claim(alertFiringClaimKey(record, firing.number), FIRING_CLAIM_TTL_MS);
	if (!claim.claimed) return;
	// The previous holder's claim may have expired just after it posted and settled: read the record again.
	const current = await deps.watch.alerts.get(record.guildId, record.id);
	if (current?.state.pending?.number !== firing.number || current.paused) return;
	const settle = async (change: (stored: AlertRecord) => AlertRecord) =>
		deps.watch.alerts.update(record.guildId, record.id, (stored) =>
			stored && stored.state.pending?.number === firing.number ? change(stored) : undefined,
		);
	try {
		await deps.postFiring(record, firing, alertNonce(record, firing.number));
	} catch (error) {
		if (error instanceof ChannelRefusedError) {
			const pause: WatchPause = { reason: error.reason, at: deps.now() };
			const paused = await settle((stored) => ({
				...stored,
				paused: pause,
				state: { ...stored.state, pending: null },
			}));
			deps.log.info({ guildId: record.guildId, alert: record.id, reason: error.reason }, 'alert paused');
			if (paused?.paused === pause) await deps.onPause(paused, pause).catch(() => undefined);
			return;
		}
		// Not posted: the firing stays pending and the next evaluation tries again.
		await claim.release().catch(() => undefined);
		deps.log.warn({ guildId: record.guildId, alert: record.id, error: errorName(error) }, 'alert not posted');
		return;
	}
	await settle((stored) => ({ ...stored, state: { ...stored.state, pending: null } }));
	deps.log.info({ guildId: record.guildId, alert: record.id, firing: firing.number }, 'alert posted');
}

export interface AlertJobOptions {
	deps: AlertDeps;
	/** ALERT_CHECK_MINUTES in ms. */
	everyMs: number;
	/** Waits out the pace between two servers' checks (not cut short by stop: the check claimed comes after it). */
	setTimer: SetTimer;
	/** HISTORY_SAMPLE_PER_MINUTE: servers checked per minute at most (each check may call the stats endpoint). */
	perMinute?: number;
}

/** The alerts' job name: metrics, claims and the REST budget's label. */
export const ALERT_JOB = 'alerts';

/**
 * Evaluates the alerts of every server that has any each ALERT_CHECK_MINUTES, each server at its own offset
 * inside the interval. Every process runs one; each server's slot is claimed, so one process reads its
 * snapshot and evaluates it.
 */
export function alertJob(options: AlertJobOptions): PeriodicJob<string> {
	const { deps } = options;
	const intervalMs = options.perMinute && options.perMinute > 0 ? 60_000 / options.perMinute : 0;
	let nextCheckAt = 0;
	// Spaces the servers' checks as the sampler spaces its calls: a burst of alerts never floods the endpoint.
	const pace = async () => {
		const wait = nextCheckAt - deps.now();
		nextCheckAt = Math.max(deps.now(), nextCheckAt) + intervalMs;
		if (intervalMs > 0 && wait > 0) await new Promise<void>((resolve) => options.setTimer(resolve, wait));
	};
	return {
		name: ALERT_JOB,
		everyMs: options.everyMs,
		spread: {
			list: async () => {
				const guilds = new Set<string>();
				for await (const record of deps.watch.alerts.listAll()) if (!record.paused) guilds.add(record.guildId);
				return guilds;
			},
			keyOf: (guildId) => guildId,
			spreadBy: (guildId) => guildId,
			claimOnce: async (key, ttlMs) => (await deps.claim(key, ttlMs)).claimed,
			concurrency: SERVER_CONCURRENCY,
		},
		turn: async ({ item: guildId }) => {
			try {
				await pace();
				await checkServerAlerts(deps, guildId);
			} catch (error) {
				deps.log.warn({ guildId, error: errorName(error) }, 'alert check failed');
			}
		},
		log: deps.log,
	};
}
