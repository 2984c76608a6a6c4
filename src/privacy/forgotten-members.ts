// A forgotten member is remembered by a keyed hash of their id, never the id: a restore of an older backup skips
// their records, and the hash alone cannot be turned back into the id without LINK_SECRET.
import { createHmac } from 'node:crypto';
import { FORGOTTEN_MEMBER_PREFIX } from '../core/record-kinds.js';
import { listEntries } from '../store/list-entries.js';
import { WEB_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';

/** Separates this use of LINK_SECRET from sealing keys, so neither output says anything about the other. */
const PURPOSE = 'adstats forgotten members v1';

export type MemberHasher = (userId: string) => string;

export function memberHasher(linkSecret: Buffer): MemberHasher {
	const key = createHmac('sha256', linkSecret).update(PURPOSE).digest();
	return (userId) => createHmac('sha256', key).update(userId).digest('hex');
}

export const forgottenMemberKey = (hash: string): string => `${FORGOTTEN_MEMBER_PREFIX}${hash}`;

export async function markForgotten(stores: Stores, hash: string, at: number): Promise<void> {
	await stores.web.set(forgottenMemberKey(hash), { forgottenAt: at });
}

/** The hashes of every member the store remembers as forgotten. */
export async function forgottenHashes(stores: Stores): Promise<Set<string>> {
	const hashes = new Set<string>();
	for await (const { key } of listEntries(stores, WEB_NAMESPACE)) {
		if (key.startsWith(FORGOTTEN_MEMBER_PREFIX)) hashes.add(key.slice(FORGOTTEN_MEMBER_PREFIX.length));
	}
	return hashes;
}
