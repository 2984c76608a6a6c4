import { linkFailure } from '../error-messages.js';
import { UserFacingError } from '../errors.js';
import type { LinkInfo } from '../links/link-model.js';
import type { CoreContext } from '../core/core-context.js';
import { forgetHistoryAfterUnlink } from './forget-history.js';

// A member's own link, from `/link` and `/unlink` or the dashboard's `/me`. They live here, not in src/links,
// because unlinking forgets the account's history, which sits above the links.

export type LinkActionContext = Pick<CoreContext, 'links' | 'cooldowns'>;
export type UnlinkActionContext = Pick<CoreContext, 'links' | 'stores' | 'history' | 'log'>;

/**
 * Checks the key against the stats API, seals it and stores it as the member's link. A key that is not one, or
 * that the stats API refuses, is stored nowhere and becomes `/link`'s words (never quoting the key). A second try
 * within the member's cooldown (STATS_COOLDOWN_SECONDS) is refused before the key goes anywhere.
 */
export async function link(ctx: LinkActionContext, userId: string, key: string): Promise<LinkInfo> {
	// Every try asks the stats API with a key: the cooldown keeps a member (or a script) from guessing quickly.
	const wait = await ctx.cooldowns.take(userId, 'link');
	if (wait > 0) throw new UserFacingError('errors.cooldown', { seconds: wait });
	return ctx.links.linkUser(userId, key).catch((error: unknown) => {
		throw linkFailure(error, 'link');
	});
}

/** Removes the member's link; the account's history goes too when no other link reads that account. */
export async function unlink(ctx: UnlinkActionContext, userId: string): Promise<{ removed: boolean }> {
	// A record no secret opens still names its account; one that cannot be read at all is removed all the same.
	const linked = await ctx.links.getUserLink(userId).catch(() => null);
	const removed = await ctx.links.removeUserLink(userId);
	if (removed) await forgetHistoryAfterUnlink(ctx, linked?.accountName ?? null);
	return { removed };
}
