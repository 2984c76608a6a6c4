import Keyv from 'keyv';
import type { BackendOptions, StoreBackend } from './store-backend.js';
import { pick } from './store-backend.js';
import { expiryOf } from './raw-entry.js';
import { openRedisConnection } from './redis-connection.js';
import { RedisStore } from './redis-store.js';

export async function openRedisBackend(
	storeUrl: string,
	namespaces: string[],
	options: BackendOptions,
): Promise<StoreBackend> {
	const connection = await openRedisConnection(storeUrl, options);
	const stores = new Map(namespaces.map((namespace) => [namespace, new RedisStore(connection, namespace)]));
	const keyvs = new Map(
		[...stores].map(([namespace, store]) => [
			namespace,
			new Keyv({ store, namespace, useKeyPrefix: false, throwOnErrors: true }),
		]),
	);
	return {
		keyv: (namespace) => pick(keyvs, namespace),
		list: (namespace) => pick(stores, namespace).list(),
		writeRaw: async (namespace, { key, raw }) => {
			const expires = expiryOf(raw);
			const ttl = expires === null ? undefined : expires - Date.now();
			if (ttl !== undefined && ttl <= 0) return;
			await pick(stores, namespace).set(key, raw, ttl);
		},
		close: async () => connection.close(),
	};
}
