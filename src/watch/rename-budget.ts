import type { StatChannelRecord } from './watch-record.js';

/** Discord allows two renames of a channel per 10 minutes. */
export const RENAMES_PER_WINDOW = 2;
/** The window, with a margin for the clocks of Discord and of the bot's processes disagreeing a little. */
export const RENAME_WINDOW_MS = 10 * 60_000 + 15_000;

type Budget = Pick<StatChannelRecord, 'renames' | 'blockedUntil'>;

/** Epoch ms from which a rename may be sent (`now` when it may be sent now). */
export function nextRenameAt(budget: Budget, now: number): number {
	const recent = budget.renames.filter((at) => at + RENAME_WINDOW_MS > now).sort((a, b) => a - b);
	const windowFree =
		recent.length < RENAMES_PER_WINDOW ? now : (recent[recent.length - RENAMES_PER_WINDOW] ?? now) + RENAME_WINDOW_MS;
	return Math.max(now, windowFree, budget.blockedUntil);
}

/** The budget with a rename sent at `now`: older ones outside the window forgotten. */
export function spendRename<B extends Budget>(budget: B, now: number): B {
	return { ...budget, renames: [...budget.renames.filter((at) => at + RENAME_WINDOW_MS > now), now] };
}
