import type { BackendOptions, StoreBackend } from './store-backend.js';
import { STORE_URL_PROBLEM, storeSchemeOf } from './store-backend.js';

/** Opens the backend a STORE_URL names; each is imported only when configured (the clients cost MiBs of heap). */
export async function openBackend(
	storeUrl: string,
	namespaces: string[],
	options: BackendOptions,
): Promise<StoreBackend> {
	switch (storeSchemeOf(storeUrl)) {
		case 'sqlite':
			return (await import('./sqlite-backend.js')).openSqliteBackend(storeUrl, namespaces, options);
		case 'redis':
			return (await import('./redis-backend.js')).openRedisBackend(storeUrl, namespaces, options);
		case 'postgres':
			return (await import('./postgres-backend.js')).openPostgresBackend(storeUrl, namespaces, options);
		default:
			throw new Error(STORE_URL_PROBLEM);
	}
}
