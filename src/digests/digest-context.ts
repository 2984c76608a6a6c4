import { withRestJob } from '../rest-job.js';
import type { CoreContext } from '../core/core-context.js';
import { buildDigestMessage, type DigestBuildContext } from './build-digest.js';
import type { DigestJobDeps } from './digest-job.js';
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
