import type { StatsClient } from '../stats-api/client.js';

export { createLinkStore, serverLinkKey, userLinkKey } from './link-store.js';
export type { LinkStoreOptions } from './link-store.js';
export { openStores } from '../store/open-stores.js';
export type { OpenStoresOptions, Stores } from '../store/open-stores.js';
export {
	CACHE_NAMESPACE,
	HISTORY_NAMESPACE,
	LINKS_NAMESPACE,
	REPORTS_NAMESPACE,
	SETTINGS_NAMESPACE,
} from '../store/namespaces.js';
export { validateApiKey, MIN_KEY_LENGTH, MAX_KEY_LENGTH } from './validate-key.js';
export * from '../errors.js';
export type { LinkedKey, LinkInfo, LinkStatus, LinkStore } from './link-model.js';

/** The `verifyKey` that createLinkStore expects, backed by the stats client (meta.user → account name). */
export function verifyWithStats(stats: Pick<StatsClient, 'verifyKey'>) {
	return async (apiKey: string): Promise<{ accountName: string | null }> => ({
		accountName: (await stats.verifyKey(apiKey)).meta.user,
	});
}
