import type { BotContext } from '../discord/context.js';
import { postReport } from '../reports/post-due-report.js';
import { buildReportPost, type ReportPost } from '../reports/build-report-post.js';
import { fetchStatsFor } from '../stats/resolve-key.js';
import { deliveryDeps, postedEventContext } from '../webhooks/webhook-context.js';
import { queuePostedEvent, snapshotFigures } from '../webhooks/webhook-events.js';
import { webhookJob } from '../webhooks/webhook-job.js';
import type { GuildApi } from '../guild-api.js';
import { createReportStore } from '../reports/report-store.js';
import { reportJob } from '../reports/report-job.js';
import { auditTime } from '../settings/audit.js';
import { describePause } from '../reports/describe-report.js';
import { type ReportPause, type ReportRecord } from '../reports/report-record.js';
import { listLinkedKeys } from '../links/list-linked-keys.js';
import { samplerJob } from '../history/sampler.js';
import { historyPruneJob, storedHistoryIds } from '../history/history-prune-job.js';
import { watchJobs } from '../watch/watch-context.js';
import { boardDeps, boardJob } from '../boards/board-job.js';
import { digestJobDeps } from '../digests/digest-context.js';
import { digestJob } from '../digests/digest-job.js';
import { createPeriodicRunner, realClock, startAll, type Clock, type PeriodicRunner } from '../core/periodic-runner.js';
import { claimOnce } from '../core/claims.js';
import { auditPause } from '../core/pause-to-audit.js';
import { withRestJob } from '../rest-job.js';
import { leftServersJob } from './left-servers.js';

export interface BackgroundJobs {
	/** Stops the report scheduler, the sampler and the watchers after the work in flight; call before closing the store. */
	stop(): Promise<void>;
}

/**
 * Starts what runs without an interaction: scheduled reports (posted with the context's GuildApi), the daily prune
 * of history older than HISTORY_DAYS, the purge of servers left SERVER_DATA_DAYS ago and, unless
 * HISTORY_SAMPLING=off, the daily history sampler, and the stat channels, alerts, boards and weekly digests
 * (`watch: false` leaves those out).
 * Every process may start them: they coordinate through the store.
 */
export function startBackgroundJobs(
	ctx: BotContext,
	options: { postMessage?: GuildApi['postMessage']; clock?: Clock; rescanMs?: number; watch?: boolean } = {},
): BackgroundJobs {
	const clock = options.clock ?? realClock;
	const reports = createReportStore(ctx.stores);
	const reportScan = reportJob({
		reports,
		claimOnce: claimOnce(ctx.coordinator),
		post: async (record, _dueAt, slot) => {
			let built: ReportPost | null = null;
			// Labelled in the REST budget's metrics; a report's time is the member's choice, so it is not spread.
			const outcome = await withRestJob('reports', async () =>
				postReport(
					{
						reports,
						buildPost: async (current) => (built = await buildReportPost(ctx, current)),
						postMessage: options.postMessage ?? ctx.guildApi.postMessage,
						now: clock.now,
						log: ctx.log,
					},
					record,
					slot,
				),
			);
			if (typeof outcome === 'object') await auditReportPause(ctx, record, outcome.paused);
			// Posted once (the slot is claimed once across processes): the same post, once, for the server's webhooks.
			if (outcome === 'posted' && built) await queueReportEvent(ctx, clock, record, built);
		},
		now: clock.now,
		log: ctx.log,
		rescanMs: options.rescanMs,
	});
	const runners = [createPeriodicRunner(reportScan, clock)];
	const sampler = historySampler(ctx, clock);
	if (sampler) runners.push(sampler);
	runners.push(createPeriodicRunner(historyPrune(ctx, clock), clock));
	runners.push(createPeriodicRunner(leftServersJob(ctx, clock), clock));
	// The webhooks' queue: first attempts and retries, each attempt claimed once across processes.
	runners.push(createPeriodicRunner(webhookJob(deliveryDeps(ctx, clock.now)), clock));
	if (options.watch !== false) {
		const [statChannels, alerts] = watchJobs(ctx, clock);
		runners.push(
			createPeriodicRunner(statChannels, clock),
			createPeriodicRunner(alerts, clock),
			createPeriodicRunner(boardJob(boardDeps(ctx, clock.now), ctx.config.boardMinutes * 60_000), clock),
			createPeriodicRunner(digestJob(digestJobDeps(ctx, clock.now)), clock),
		);
	}
	return startAll(runners);
}

/** A posted report as a `report.posted` event: its text, and the server account's figures as numbers. */
export async function queueReportEvent(
	ctx: BotContext,
	clock: Clock,
	record: ReportRecord,
	post: ReportPost,
): Promise<void> {
	// The report has just read this snapshot: the stats client's cache answers.
	const target = { scope: 'server' as const, userId: record.createdBy, guildId: record.guildId };
	const result = await fetchStatsFor(ctx, target).catch(() => null);
	await queuePostedEvent(postedEventContext(ctx, clock.now), record.guildId, 'report.posted', post, {
		figures: result ? snapshotFigures(result.snapshot) : {},
		details: { every: record.every, channelId: record.channelId },
	});
}

/** Tells the server's audit channel, in the server's language, that a report stopped and why. */
async function auditReportPause(ctx: BotContext, record: ReportRecord, pause: ReportPause): Promise<void> {
	await auditPause(ctx, record, (t) => ({
		key: 'audit.reportPaused',
		vars: { channelId: record.channelId, when: auditTime(pause.at), reason: describePause(t, pause) },
	}));
}

type SamplerContext = Pick<BotContext, 'config' | 'links' | 'stats' | 'history' | 'coordinator' | 'stores' | 'log'>;

/** Starts the history sampler on its own (tests); null when HISTORY_SAMPLING=off. */
export function startHistorySampler(ctx: SamplerContext, clock: Clock = realClock): PeriodicRunner | null {
	const sampler = historySampler(ctx, clock);
	sampler?.start();
	return sampler;
}

/**
 * The daily history sampler over every member and server link, claimed through the shared store so that each
 * account is sampled once a day however many processes run it. Null when HISTORY_SAMPLING=off.
 */
function historySampler(ctx: SamplerContext, clock: Clock): PeriodicRunner | null {
	if (!ctx.config.historySampling) return null;
	const job = samplerJob({
		listAccounts: () => listLinkedKeys(ctx.stores, ctx.links),
		fetchSnapshot: async (apiKey) => ctx.stats.fetchSnapshot(apiKey),
		record: async (snapshot, receivedAt) => ctx.history.record(snapshot, receivedAt),
		claim: async (key, ttlMs) => {
			const claim = await ctx.coordinator.claim(key, Math.ceil(ttlMs));
			return claim.claimed ? claim : null;
		},
		secret: ctx.config.linkSecret,
		perMinute: ctx.config.historySamplePerMinute,
		now: clock.now,
		log: ctx.log,
	});
	return createPeriodicRunner(job, clock);
}

/** Deletes history older than HISTORY_DAYS once a day; runs even with HISTORY_SAMPLING=off, as /stats still records. */
function historyPrune(ctx: SamplerContext, clock: Clock) {
	return historyPruneJob({
		listAccountIds: () => storedHistoryIds(ctx.stores),
		history: ctx.history,
		historyDays: ctx.config.historyDays,
		claimOnce: claimOnce(ctx.coordinator),
		now: clock.now,
		log: ctx.log,
	});
}
