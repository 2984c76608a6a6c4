import type Keyv from 'keyv';
import { STORE_URL_PROBLEM, storeSchemeOf } from '../store-url.js';
import type { BackendOptions, StoreBackend } from './store-backend.js';
import { STORE_DEADLINE_MS } from './with-deadline.js';
import {
	ALL_NAMESPACES,
	CACHE_NAMESPACE,
	HISTORY_NAMESPACE,
	LINKS_NAMESPACE,
	REPORTS_NAMESPACE,
	SETTINGS_NAMESPACE,
	WEB_NAMESPACE,
	WATCH_NAMESPACE,
} from './namespaces.js';
import type { NamespaceName } from './namespaces.js';

export interface Stores {
	links: Keyv;
	cache: Keyv;
	history: Keyv;
	reports: Keyv;
	settings: Keyv;
	/** The web dashboard's sessions, login states and public links. */
	web: Keyv;
	/** Stat channels and alerts. */
	watch: Keyv;
	/** Raw access for the maintenance commands (listing, verbatim copies); the bot uses the Keyvs. */
	backend: StoreBackend;
	/** The full name of a namespace on this store (prefix included), as `backend` expects it. */
	namespace(name: NamespaceName): string;
	/** Finishes within a bounded time whatever the store does; a second call waits for the first. */
	close(): Promise<void>;
}

export interface OpenStoresOptions {
	/** Prepended to every namespace; lets tests share one Redis or Postgres without colliding. */
	namespacePrefix?: string;
	/** Receives every storage error (they also throw); log it, it never holds a value. */
	onError?: (error: unknown) => void;
	/** Deadline of each store operation. */
	deadlineMs?: number;
}

/**
 * Opens one Keyv per namespace on `sqlite://path`, `redis://…` or `postgres://…`, connected before it
 * resolves (a store that is down now is reported through onError, and every operation then waits for
 * it within its deadline). Every operation throws when the backend fails or misses its deadline, so an
 * outage can never read as "nothing stored".
 */
export async function openStores(storeUrl: string, options: OpenStoresOptions = {}): Promise<Stores> {
	const prefix = options.namespacePrefix ?? '';
	const onError = options.onError ?? (() => undefined);
	const namespace = (name: NamespaceName) => prefix + name;
	const backend = await openBackend(storeUrl, ALL_NAMESPACES.map(namespace), {
		deadlineMs: options.deadlineMs ?? STORE_DEADLINE_MS,
		onError,
	});
	const keyvOf = (name: NamespaceName): Keyv => {
		const keyv = backend.keyv(namespace(name));
		keyv.on('error', onError);
		return keyv;
	};
	return {
		links: keyvOf(LINKS_NAMESPACE),
		cache: keyvOf(CACHE_NAMESPACE),
		history: keyvOf(HISTORY_NAMESPACE),
		reports: keyvOf(REPORTS_NAMESPACE),
		settings: keyvOf(SETTINGS_NAMESPACE),
		web: keyvOf(WEB_NAMESPACE),
		watch: keyvOf(WATCH_NAMESPACE),
		backend,
		namespace,
		close: async () => backend.close(),
	};
}

/** Opens the backend a STORE_URL names; each is imported only when configured (the clients cost MiBs of heap). */
async function openBackend(storeUrl: string, namespaces: string[], options: BackendOptions): Promise<StoreBackend> {
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
