// `data purge --server ID`: everything the server owns, whether or not the bot is still in it, and its account's
// history when no other link reads that account. Records of members that merely mention the server stay theirs.
import { kindOf } from '../core/record-kinds.js';
import { CLAIMS_NAMESPACE } from '../store/coordination.js';
import { HISTORY_NAMESPACE, WATCH_NAMESPACE } from '../store/namespaces.js';
import type { PrivacyContext } from './privacy-context.js';
import { keyvOf, storedRecords } from './stored-records.js';
import { accountOnlyReadBy } from './unread-accounts.js';
import { serverLinkKey } from '../links/link-keys.js';

const LEFT_MARK_KIND = 'serverLeft';
const LEFT_MARK_NAMESPACE = WATCH_NAMESPACE;

/** Records deleted, by the kind's registry id. */
export type PurgeResult = Map<string, number>;

export async function purgeServer(ctx: PrivacyContext, guildId: string): Promise<PurgeResult> {
	const { stores } = ctx;
	const deleted: PurgeResult = new Map();
	const add = (id: string) => deleted.set(id, (deleted.get(id) ?? 0) + 1);
	// Read before the server's link goes: whether another link reads its account.
	const accounts = await accountOnlyReadBy(stores, serverLinkKey(guildId));
	// The left mark goes last: a purge cut short keeps it, so the next turn of the left-servers job finishes the purge.
	const marks: { namespace: typeof LEFT_MARK_NAMESPACE; key: string }[] = [];
	for await (const { kind, key, namespace, owners } of storedRecords(stores, { once: false })) {
		if (!owners.servers.includes(guildId) || (kind.belongsTo !== 'server' && kind.keeping === 'data')) continue;
		if (kind.id === LEFT_MARK_KIND && namespace === LEFT_MARK_NAMESPACE) marks.push({ namespace, key });
		else if (await keyvOf(stores, namespace).delete(key)) add(kind.id);
	}
	for (const account of accounts.keys()) {
		const removed = ctx.history
			? await ctx.history.remove(account)
			: await keyvOf(stores, HISTORY_NAMESPACE).delete(account);
		if (removed) add('history');
	}
	for await (const key of ctx.coordinator.keys()) {
		const kind = kindOf(CLAIMS_NAMESPACE, key);
		if (!kind?.owners(key, undefined).servers.includes(guildId)) continue;
		await ctx.coordinator.remove(key);
		add(kind.id);
	}
	for (const { namespace, key } of marks) if (await keyvOf(stores, namespace).delete(key)) add(LEFT_MARK_KIND);
	await stores.backend.settle?.();
	return deleted;
}
