import type { StatsClient } from '../stats-api/client.js';

export { createLinkStore, serverLinkKey, userLinkKey } from './link-store.js';
export type { LinkStoreOptions } from './link-store.js';
export { openStores, LINKS_NAMESPACE, CACHE_NAMESPACE } from './keyv-stores.js';
export type { OpenStoresOptions, Stores } from './keyv-stores.js';
export { validateApiKey, MIN_KEY_LENGTH, MAX_KEY_LENGTH } from './validate-key.js';
export * from './errors.js';
export type { LinkedKey, LinkInfo, LinkStore } from './types.js';

/** The `verifyKey` that createLinkStore expects, backed by the stats client (meta.user → account name). */
export function verifyWithStats(stats: Pick<StatsClient, 'verifyKey'>) {
	return async (apiKey: string): Promise<{ accountName: string | null }> => ({
		accountName: (await stats.verifyKey(apiKey)).meta.user,
	});
}
