// `/privacy delete`, `POST /me/delete` and `data forget`: afterwards no key or value of any namespace, claims
// included, holds the member's id. Their own records go, their account's history goes when no other link reads it,
// server records that name them are scrubbed (the server keeps its alert), and a keyed hash of the id is kept so a
// restore of an older backup skips them.
import { claimLock } from '../core/claims.js';
import { goalStoreOf } from '../goals/goal-store.js';
import { CLAIMS_NAMESPACE } from '../store/coordination.js';
import { kindOf } from '../core/record-kinds.js';
import type { RecordKind } from '../core/record-kinds.js';
import { isSharedStore } from '../core/record-store.js';
import { HISTORY_NAMESPACE, LINKS_NAMESPACE } from '../store/namespaces.js';
import { markForgotten, memberHasher } from './forgotten-members.js';
import { accountOnlyReadBy } from './unread-accounts.js';
import { userLinkKey } from '../links/link-keys.js';
import type { PrivacyContext } from './privacy-context.js';
import { scrubMember } from './scrub-member.js';
import { keyvOf, storedRecords } from './stored-records.js';

/** What went, by the kind's registry id: records deleted, records that only stopped naming the member. */
export interface ForgetResult {
	deleted: Map<string, number>;
	scrubbed: Map<string, number>;
}

const add = (counts: Map<string, number>, id: string) => counts.set(id, (counts.get(id) ?? 0) + 1);

export async function forgetMember(ctx: PrivacyContext, userId: string): Promise<ForgetResult> {
	const { stores } = ctx;
	const now = ctx.now ?? Date.now;
	const deleted = new Map<string, number>();
	const scrubbed = new Map<string, number>();
	const named = (id: unknown) => id === userId;
	// Read before the link goes: the account only their link reads, whose history goes with it.
	const accounts = await accountOnlyReadBy(stores, userLinkKey(userId));
	// Marked first: a restore racing this forget already skips them.
	await markForgotten(stores, memberHasher(ctx.config.linkSecret)(userId), now());

	// Goals go through their store, so that what this process keeps of them in memory goes at once too.
	const goals = goalStoreOf(ctx);
	if ((await goals.read({ scope: 'me', userId })).length > 0) {
		await goals.update({ scope: 'me', userId }, () => []);
		add(deleted, 'memberGoals');
	}
	const rewritten: { kind: RecordKind; key: string; keyv: ReturnType<typeof keyvOf> }[] = [];
	// Through the link store when there is one, so that this process stops using the key at once.
	if (await ctx.links?.removeUserLink(userId)) add(deleted, 'link');
	for await (const record of storedRecords(stores, { once: false })) {
		const { kind, key, namespace, owners } = record;
		if (!owners.members.includes(userId)) continue;
		const keyv = keyvOf(stores, namespace);
		if (kind.id === 'serverGoals' && owners.servers[0]) {
			const server = { scope: 'server', guildId: owners.servers[0] } as const;
			let changed = false;
			await goals.update(server, (list) => {
				changed = list.some((goal) => goal.setBy === userId);
				return changed ? list.map((goal) => (goal.setBy === userId ? { ...goal, setBy: '' } : goal)) : undefined;
			});
			if (changed) add(scrubbed, kind.id);
		} else if (kind.belongsTo === 'server' || kind.namingFields.length > 0) {
			if (await scrubRecord(ctx, kind, key, keyv, named)) add(scrubbed, kind.id);
			rewritten.push({ kind, key, keyv });
			if (namespace === LINKS_NAMESPACE) ctx.links?.dropKept(key);
		} else if (await keyv.delete(key)) {
			// The member's own record, or a transient one that names them (a cooldown, a claim on their record).
			add(deleted, kind.id);
		}
	}
	// A feature's own write that raced a rewrite may have put the id back from what it read before: once more.
	for (const { kind, key, keyv } of rewritten) await scrubRecord(ctx, kind, key, keyv, named);
	for (const accountId of accounts.keys()) {
		const removed = ctx.history
			? await ctx.history.remove(accountId)
			: await keyvOf(stores, HISTORY_NAMESPACE).delete(accountId);
		if (removed) add(deleted, 'history');
	}
	for await (const key of ctx.coordinator.keys()) {
		const kind = kindOf(CLAIMS_NAMESPACE, key);
		// A claim of no kind is still removed when its key holds the id: no key may hold it afterwards.
		const names = kind ? kind.owners(key, undefined).members.includes(userId) : key.split(':').includes(userId);
		if (!names) continue;
		await ctx.coordinator.remove(key);
		add(deleted, kind?.id ?? 'claim');
	}
	await stores.backend.settle?.();
	return { deleted, scrubbed };
}

/**
 * Rewrites a server record without the member, under the record's lock where processes share the store (the lock
 * the features' record stores take). On SQLite the features lock with a mutex of their own store, out of reach
 * here: a feature's read-modify-write of the same record may land between this read and write, which is why the
 * caller rewrites every such record a second time after the walk.
 */
async function scrubRecord(
	ctx: PrivacyContext,
	kind: RecordKind,
	key: string,
	keyv: ReturnType<typeof keyvOf>,
	named: (id: unknown) => boolean,
): Promise<boolean> {
	const rewrite = async () => {
		const next = scrubMember(kind, await keyv.get(key), named);
		if (next === null) return false;
		await keyv.set(key, next);
		return true;
	};
	return isSharedStore(ctx.config) ? claimLock(ctx.coordinator)(key, rewrite) : rewrite();
}
