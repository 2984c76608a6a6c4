// Servers the bot leaves, wired: the gateway's removals, additions and READYs into marks, and the minute job that
// purges a server SERVER_DATA_DAYS after its removal.
import type { BotContext } from '../discord/context.js';
import { botGuildList, botPresence, type GuildPresenceHandlers } from '../discord/guild-presence.js';
import { claimOnce } from '../core/claims.js';
import { errorName, type Clock } from '../core/periodic-runner.js';
import { clearServerLeft, markServerLeft, readyCheck } from '../privacy/left-server-actions.js';
import { leftServerJob, settleLeftServer, type LeftServerJobDeps } from '../privacy/left-server-job.js';

export function leftServerJobDeps(ctx: BotContext, now: () => number): LeftServerJobDeps {
	return {
		ctx,
		presence: botPresence(ctx.guildApi),
		// HTTP interactions mode: no gateway, so Discord's list of the bot's servers tells of removals.
		listGuilds: ctx.config.interactionsPort === null ? null : botGuildList(ctx.guildApi),
		claimOnce: claimOnce(ctx.coordinator),
		now,
		log: ctx.log,
	};
}

/** Marks are dated by the bot's clock (ctx.now, pinned by tests and the demo), so their age is read on it too. */
export function leftServersJob(ctx: BotContext, clock: Clock) {
	return leftServerJob(leftServerJobDeps(ctx, ctx.now ?? clock.now));
}

/**
 * What the gateway's presence events do in this process. With SERVER_DATA_DAYS=0 a removal is purged at once (after
 * Discord confirms it), not at the job's next minute. `idle` settles the work started so far (tests).
 */
export function guildPresenceHandlers(ctx: BotContext): GuildPresenceHandlers & { idle(): Promise<void> } {
	const now = ctx.now ?? Date.now;
	const actionCtx = { ...ctx, now };
	const readies = readyCheck(actionCtx);
	const inFlight = new Set<Promise<unknown>>();
	const track = (work: Promise<unknown>, what: string) => {
		const task = work
			.catch((error: unknown) => ctx.log.warn({ error: errorName(error) }, what))
			.finally(() => inFlight.delete(task));
		inFlight.add(task);
	};
	return {
		removed: (guildId) =>
			track(
				(async () => {
					const mark = await markServerLeft(actionCtx, guildId, 'guildDelete');
					if (ctx.config.serverDataDays === 0) await settleLeftServer(leftServerJobDeps(ctx, now), mark);
				})(),
				'server not marked left',
			),
		added: (guildId) => track(clearServerLeft(actionCtx, guildId), 'left mark not cleared'),
		ready: (ready) => readies.onReady(ready),
		idle: async () => {
			while (inFlight.size > 0) await Promise.all(inFlight);
			await readies.idle();
		},
	};
}
