import type { Clock, PeriodicRunner } from '../core/periodic-runner.js';
import { withRestJob } from '../rest-job.js';
import type { CoreContext } from '../core/core-context.js';
import { buildDigestMessage, type DigestBuildContext } from './build-digest.js';
import { createDigestRunner, type DigestJobDeps } from './digest-job.js';
import { digestStoreOf } from './digest-store.js';

/** What the digest job uses of the core's services; a CoreContext has all of it. */
export type DigestJobContext = DigestBuildContext & Pick<CoreContext, 'guildApi'>;

export function digestJobDeps(ctx: DigestJobContext, now: () => number): DigestJobDeps {
	return {
		digests: digestStoreOf(ctx),
		buildMessage: async (record, at) => buildDigestMessage(ctx, record, at),
		// Labelled so the shared REST budget's metrics count the DMs (opening the channel and the post) as digests.
		sendDirectMessage: async (userId, message, options) =>
			withRestJob('digests', async () => ctx.guildApi.sendDirectMessage(userId, message, options)),
		claim: async (key, ttlMs) => ctx.coordinator.claim(key, Math.ceil(ttlMs)),
		now,
		log: ctx.log,
	};
}

/** The weekly digests; every process may run it: each member's week is claimed, then stored as sent. */
export function digestRunner(ctx: DigestJobContext, clock: Clock): PeriodicRunner {
	return createDigestRunner({ deps: digestJobDeps(ctx, clock.now), clock });
}
