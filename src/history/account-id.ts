import { createHash } from 'node:crypto';

// Versioned so a future change of the id scheme cannot collide with records written under this one.
const ACCOUNT_ID_PREFIX = 'adstats-history-account v1\0';

/**
 * The store key of an account's history: hex SHA-256 of a fixed prefix and the account name (`meta.user`).
 * It depends on neither the API key nor LINK_SECRET, so a key rotated on the service side, a key linked by
 * several members and a LINK_SECRET rotation all find the same history, and nothing in the store is derived
 * from a key.
 */
export function historyAccountId(accountName: string): string {
	return createHash('sha256')
		.update(ACCOUNT_ID_PREFIX + accountName, 'utf8')
		.digest('hex');
}
