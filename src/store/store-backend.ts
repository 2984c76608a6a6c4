import type Keyv from 'keyv';
import { type RawEntry } from './raw-entry.js';

/** One opened STORE_URL: a Keyv per namespace plus the raw access the maintenance commands need. */
export interface StoreBackend {
	/** The Keyv of a namespace given to the opener (its full name, prefix included). */
	keyv(namespace: string): Keyv;
	/** Every entry of a namespace as stored, expired ones included, each page bound by the deadline. */
	list(namespace: string): AsyncIterable<RawEntry>;
	/** Writes an entry exactly as another backend listed it (the expiry inside `raw` is kept). */
	writeRaw(namespace: string, entry: RawEntry): Promise<void>;
	/** Finishes within a bounded time whatever the store does. */
	close(): Promise<void>;
}

export interface BackendOptions {
	deadlineMs: number;
	onError: (error: unknown) => void;
}

export type StoreScheme = 'sqlite' | 'redis' | 'postgres';

/** Which backend a STORE_URL names, or null when it names none. */
export function storeSchemeOf(storeUrl: string): StoreScheme | null {
	const scheme = /^([a-z]+):\/\//.exec(storeUrl)?.[1];
	if (scheme === 'sqlite') return 'sqlite';
	if (scheme === 'redis' || scheme === 'rediss') return 'redis';
	if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
	return null;
}

/** The path a `sqlite://` STORE_URL names. */
export function sqliteFileOf(storeUrl: string): string {
	return storeUrl.slice('sqlite://'.length);
}

export const STORE_URL_PROBLEM = 'STORE_URL must start with sqlite://, redis:// or postgres://';

/** The Keyv of `namespace`, or an error naming a namespace the opener was not given (a programming error). */
export function pick<T>(byNamespace: Map<string, T>, namespace: string): T {
	const found = byNamespace.get(namespace);
	if (found === undefined) throw new Error(`namespace ${namespace} was not opened`);
	return found;
}

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
