import { historyAccountId } from '../history/index.js';
import type { BotContext } from '../interactions/context.js';
import { linkKeys } from '../links/link-entries.js';
import { parseRecord } from '../links/link-record.js';

/**
 * Deletes an account's history once no link (a member's or a server's) reads that account any more, so an
 * unlink leaves nothing only that link could see. Returns true when a history was deleted. A link made to the
 * same account while this runs starts a fresh history with its first snapshot.
 */
export async function forgetHistoryIfUnread(
	ctx: Pick<BotContext, 'stores' | 'history'>,
	accountName: string,
): Promise<boolean> {
	if (await accountStillLinked(ctx, accountName)) return false;
	return ctx.history.remove(historyAccountId(accountName));
}

async function accountStillLinked(ctx: Pick<BotContext, 'stores'>, accountName: string): Promise<boolean> {
	for await (const storeKey of linkKeys(ctx.stores)) {
		const record = parseRecord(await ctx.stores.links.get(storeKey));
		if (record?.accountName === accountName) return true;
	}
	return false;
}

/**
 * `/unlink` and `/server-key remove`: the link is gone whatever happens here, so a store failure while
 * cleaning up is logged rather than turned into an error reply that would read as "nothing was removed".
 */
export async function forgetHistoryAfterUnlink(
	ctx: Pick<BotContext, 'stores' | 'history' | 'log'>,
	accountName: string | null,
): Promise<void> {
	if (accountName === null) return;
	await forgetHistoryIfUnread(ctx, accountName).catch((error: unknown) => {
		ctx.log.warn({ err: error }, 'history of an unlinked account not deleted');
	});
}
