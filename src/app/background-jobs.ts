import type { BotContext } from '../discord/context.js';
import { postReport } from '../reports/post-due-report.js';
import { buildReportPost } from '../reports/build-report-post.js';
import type { GuildApi } from '../guild-api.js';
import { createReportStore } from '../reports/report-store.js';
import { createReportScheduler } from '../reports/scheduler.js';
import { translator } from '../i18n/index.js';
import { auditTime, postAudit } from '../settings/audit.js';
import { serverLanguage } from '../settings/language.js';
import { describePause } from '../reports/describe-pause.js';
import { type ReportPause, type ReportRecord } from '../reports/report-record.js';
import { listLinkedKeys } from '../links/list-linked-keys.js';
import { createHistorySampler, type HistorySampler } from '../history/sampler.js';
import { startWatchers } from '../watch/watch-context.js';

export interface BackgroundJobs {
	/** Stops the report scheduler, the sampler and the watchers after the work in flight; call before closing the store. */
	stop(): Promise<void>;
}

/**
 * Starts what runs without an interaction: scheduled reports (posted with the context's GuildApi) and, unless
 * HISTORY_SAMPLING=off, the daily history sampler, and the stat channels and alerts (`watch: false` leaves those out).
 * Every process may start them: they coordinate through the store.
 */
export function startBackgroundJobs(
	ctx: BotContext,
	options: { postMessage?: GuildApi['postMessage']; clock?: Clock; rescanMs?: number; watch?: boolean } = {},
): BackgroundJobs {
	const clock = options.clock ?? realClock;
	const reports = createReportStore(ctx.stores);
	const scheduler = createReportScheduler({
		reports,
		claimOnce: async (key, ttlMs) => (await ctx.coordinator.claim(key, ttlMs)).claimed,
		post: async (record, _dueAt, slot) => {
			const outcome = await postReport(
				{
					reports,
					buildPost: async (current) => buildReportPost(ctx, current),
					postMessage: options.postMessage ?? ctx.guildApi.postMessage,
					now: clock.now,
					log: ctx.log,
				},
				record,
				slot,
			);
			if (typeof outcome === 'object') await auditPause(ctx, record, outcome.paused);
		},
		now: clock.now,
		setTimer: clock.setTimer,
		log: ctx.log,
		rescanMs: options.rescanMs,
	});
	scheduler.start();
	const sampler = startHistorySampler(ctx, clock);
	const watchers = options.watch === false ? null : startWatchers(ctx, clock);
	let stopping: Promise<void> | null = null;
	return {
		stop: () => {
			stopping ??= Promise.all([scheduler.stop(), sampler?.stop(), watchers?.stop()]).then(() => undefined);
			return stopping;
		},
	};
}

/** Tells the server's audit channel, in the server's language, that a report stopped and why. */
async function auditPause(ctx: BotContext, record: ReportRecord, pause: ReportPause): Promise<void> {
	const settings = await ctx.settings.get(record.guildId).catch(() => null);
	if (settings === null) return;
	const locale = serverLanguage(settings, record.guildLocale);
	const reason = describePause(translator(locale), locale, pause);
	await postAudit(
		ctx,
		record.guildId,
		{ key: 'audit.reportPaused', vars: { channelId: record.channelId, when: auditTime(pause.at), reason } },
		{ settings, guildLocale: record.guildLocale },
	);
}

export interface Clock {
	/** Epoch ms. */
	now: () => number;
	/** Calls `fn` after `ms`; returns a function that cancels it. */
	setTimer: (fn: () => void, ms: number) => () => void;
}

export const realClock: Clock = {
	now: Date.now,
	setTimer: (fn, ms) => {
		const timer = setTimeout(fn, ms);
		return () => clearTimeout(timer);
	},
};

type SamplerContext = Pick<BotContext, 'config' | 'links' | 'stats' | 'history' | 'coordinator' | 'stores' | 'log'>;

/**
 * The daily history sampler over every member and server link, claimed through the shared store so that each
 * account is sampled once a day however many processes run it. Null when HISTORY_SAMPLING=off.
 */
export function startHistorySampler(ctx: SamplerContext, clock: Clock = realClock): HistorySampler | null {
	if (!ctx.config.historySampling) return null;
	const sampler = createHistorySampler({
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
		setTimer: clock.setTimer,
		log: ctx.log,
	});
	sampler.start();
	return sampler;
}
