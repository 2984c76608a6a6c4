import { historyAccountId } from '../history/account-id.js';
import type { HistoryStore } from '../history/history-store.js';
import type { Logger } from '../logger.js';
import type { Stores } from '../store/open-stores.js';
import { parseRecord } from '../links/link-record.js';
import { listEntries } from '../store/list-entries.js';
import { LINKS_NAMESPACE } from '../store/namespaces.js';

/**
 * Deletes an account's history once no link (a member's or a server's) reads that account any more, so an
 * unlink leaves nothing only that link could see. Returns true when a history was deleted. A link made to the
 * same account while this runs starts a fresh history with its first snapshot.
 */
export async function forgetHistoryIfUnread(
	ctx: { stores: Stores; history: Pick<HistoryStore, 'remove'> },
	accountName: string,
): Promise<boolean> {
	if (await accountStillLinked(ctx, accountName)) return false;
	return ctx.history.remove(historyAccountId(accountName));
}

/**
 * `/unlink` and `/server-key remove`: the link is gone whatever happens here, so a store failure while
 * cleaning up is logged rather than turned into an error reply that would read as "nothing was removed".
 */
export async function forgetHistoryAfterUnlink(
	ctx: { stores: Stores; history: Pick<HistoryStore, 'remove'>; log: Pick<Logger, 'warn'> },
	accountName: string | null,
): Promise<void> {
	if (accountName === null) return;
	await forgetHistoryIfUnread(ctx, accountName).catch((error: unknown) => {
		ctx.log.warn({ err: error }, 'history of an unlinked account not deleted');
	});
}

/**
 * One walk over the links, reading each record from the listing itself (no request per link, which would
 * cost seconds with thousands of links on Redis); an entry the listing cannot be read from is fetched.
 */
async function accountStillLinked(ctx: { stores: Stores }, accountName: string): Promise<boolean> {
	for await (const { key, raw } of listEntries(ctx.stores, LINKS_NAMESPACE)) {
		const record = parseRecord(storedValue(raw)) ?? parseRecord(await ctx.stores.links.get(key));
		if (record?.accountName === accountName) return true;
	}
	return false;
}

/** The value inside Keyv's serialized `{ value, expires }`, or undefined when it is not that. */
function storedValue(raw: string): unknown {
	try {
		return (JSON.parse(raw) as { value?: unknown } | null)?.value;
	} catch {
		return undefined;
	}
}
