import type { BotContext } from '../interactions/context.js';
import { realClock, startHistorySampler, type Clock } from '../history/run-sampler.js';
import { postReport } from './post-report.js';
import { buildReportPost, type PostMessage } from './report-post.js';
import { createReportStore } from './report-store.js';
import { createReportScheduler } from './scheduler.js';

export interface BackgroundJobs {
	/** Stops the report scheduler and the sampler after the work in flight; call before closing the store. */
	stop(): Promise<void>;
}

/**
 * Starts what runs without an interaction: scheduled reports (posted over REST with `postMessage`) and, unless
 * HISTORY_SAMPLING=off, the daily history sampler. Every process may start them: they coordinate through the store.
 */
export function startBackgroundJobs(
	ctx: BotContext,
	options: { postMessage: PostMessage; clock?: Clock; rescanMs?: number },
): BackgroundJobs {
	const clock = options.clock ?? realClock;
	const reports = createReportStore(ctx.stores);
	const scheduler = createReportScheduler({
		reports,
		claimOnce: async (key, ttlMs) => (await ctx.coordinator.claim(key, ttlMs)).claimed,
		post: async (record, _dueAt, slot) => {
			await postReport(
				{
					reports,
					buildPost: async (current) => buildReportPost(ctx, current),
					postMessage: options.postMessage,
					now: clock.now,
					log: ctx.log,
				},
				record,
				slot,
			);
		},
		now: clock.now,
		setTimer: clock.setTimer,
		log: ctx.log,
		rescanMs: options.rescanMs,
	});
	scheduler.start();
	const sampler = startHistorySampler(ctx, clock);
	let stopping: Promise<void> | null = null;
	return {
		stop: () => {
			stopping ??= Promise.all([scheduler.stop(), sampler?.stop()]).then(() => undefined);
			return stopping;
		},
	};
}
