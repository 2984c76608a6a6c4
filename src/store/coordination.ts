import { storeSchemeOf, STORE_URL_PROBLEM } from '../store-url.js';
import { STORE_DEADLINE_MS } from './with-deadline.js';
import type { ClaimBackend, ClaimBackendSettings, Coordinator } from './claim-types.js';

/** Claims belong to the namespace that names them (`claims`), beside the Keyv namespaces of the same store. */
export const CLAIMS_NAMESPACE = 'claims';

/**
 * Opens cross-process claims on a STORE_URL: `SET NX PX` on Redis, a claim row on PostgreSQL and in
 * the bot's SQLite file (which survives restarts). Every call has the store deadline and throws
 * StorageUnavailableError when the store fails. A claim can expire while its holder still works:
 * treat it as "someone else is on it", and keep the protected write idempotent.
 */
export async function openCoordinator(
	storeUrl: string,
	options: { namespacePrefix?: string; now?: () => number; onError?: (e: unknown) => void } = {},
): Promise<Coordinator> {
	const settings = {
		deadlineMs: STORE_DEADLINE_MS,
		now: options.now ?? Date.now,
		onError: options.onError ?? (() => undefined),
	};
	const backend = await openClaimBackend(storeUrl, settings);
	const prefix = `${options.namespacePrefix ?? ''}${CLAIMS_NAMESPACE}:`;
	return {
		claim: async (key, ttlMs) => {
			if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive whole number');
			return backend.tryClaim(prefix + key, crypto.randomUUID(), ttlMs);
		},
		keys: async function* () {
			for await (const key of backend.keys(prefix)) yield key.slice(prefix.length);
		},
		remove: async (key) => backend.remove(prefix + key),
		close: async () => backend.close(),
	};
}

async function openClaimBackend(storeUrl: string, settings: ClaimBackendSettings): Promise<ClaimBackend> {
	switch (storeSchemeOf(storeUrl)) {
		case 'sqlite':
			return (await import('./sqlite-claims.js')).openSqliteClaims(storeUrl, settings);
		case 'redis':
			return (await import('./redis-claims.js')).openRedisClaims(storeUrl, settings);
		case 'postgres':
			return (await import('./postgres-claims.js')).openPostgresClaims(storeUrl, settings);
		default:
			throw new Error(STORE_URL_PROBLEM);
	}
}
