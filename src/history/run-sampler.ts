import type { BotContext } from '../interactions/context.js';
import { listLinkedKeys } from '../links/list-linked-keys.js';
import { createHistorySampler, type HistorySampler } from './sampler.js';

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
		claimOnce: async (key, ttlMs) => (await ctx.coordinator.claim(key, Math.ceil(ttlMs))).claimed,
		secret: ctx.config.linkSecret,
		perMinute: ctx.config.historySamplePerMinute,
		now: clock.now,
		setTimer: clock.setTimer,
		log: ctx.log,
	});
	sampler.start();
	return sampler;
}
