import Keyv from 'keyv';
import type { BackendOptions, StoreBackend } from './store-backend.js';
import { pick } from './store-backend.js';
import { StoreDeadline, withDeadline } from './with-deadline.js';
import { openPostgresPool, PostgresStore } from './postgres-store.js';

const POOL_SIZE = 10;

export async function openPostgresBackend(
	storeUrl: string,
	namespaces: string[],
	options: BackendOptions,
): Promise<StoreBackend> {
	const pool = openPostgresPool(storeUrl, { deadlineMs: options.deadlineMs, max: POOL_SIZE, onError: options.onError });
	const deadline = new StoreDeadline(options.deadlineMs);
	const stores = new Map(namespaces.map((namespace) => [namespace, new PostgresStore(pool, deadline)]));
	const keyvs = new Map(
		[...stores].map(([namespace, store]) => [namespace, new Keyv({ store, namespace, throwOnErrors: true })]),
	);
	// Connects (and creates the table) before serving; a database that is down now is reported, and
	// every operation retries it until it answers.
	const first = stores.values().next().value;
	if (first) await first.has('').catch(options.onError);
	let ended: Promise<void> | null = null;
	return {
		keyv: (namespace) => pick(keyvs, namespace),
		// Keyv prefixes keys with `namespace:` on this backend.
		list: (namespace) => pick(stores, namespace).list(`${namespace}:`),
		writeRaw: async (namespace, { key, raw }) => pick(stores, namespace).set(`${namespace}:${key}`, raw),
		close: async () => {
			// pool.end() waits for checked-out clients, which a frozen server may hold until their query times out.
			ended ??= withDeadline(pool.end(), options.deadlineMs * 2).catch(options.onError);
			await ended;
		},
	};
}
