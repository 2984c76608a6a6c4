import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Keyv from 'keyv';
import type { KeyvStoreAdapter } from 'keyv';

/** Namespaces are spelled here only. */
export const LINKS_NAMESPACE = 'links';
export const CACHE_NAMESPACE = 'stats-cache';

const SQLITE_BUSY_TIMEOUT_MS = 5000;
const CONNECT_TIMEOUT_MS = 2000;

export interface Stores {
	links: Keyv;
	cache: Keyv;
	close(): Promise<void>;
}

export interface OpenStoresOptions {
	/** Prepended to both namespaces; lets tests share one Redis or Postgres without colliding. */
	namespacePrefix?: string;
	/** Receives every storage error (they also throw); log it, it never holds a value. */
	onError?: (error: unknown) => void;
}

/**
 * Opens one Keyv per namespace on `sqlite://path`, `redis://…` or `postgres://…`. Every operation
 * throws when the backend fails, so an outage can never read as "nothing stored".
 */
export async function openStores(storeUrl: string, options: OpenStoresOptions = {}): Promise<Stores> {
	const prefix = options.namespacePrefix ?? '';
	const onError = options.onError ?? (() => undefined);
	const scheme = /^([a-z]+):\/\//.exec(storeUrl)?.[1];
	const adapters = await openAdapters(scheme, storeUrl, [prefix + LINKS_NAMESPACE, prefix + CACHE_NAMESPACE]);
	const [links, cache] = adapters.map(({ keyv }) => {
		keyv.on('error', onError);
		return keyv;
	}) as [Keyv, Keyv];
	let closed = false;
	return {
		links,
		cache,
		close: async () => {
			if (closed) return;
			closed = true;
			for (const { disconnect } of adapters) await disconnect().catch(onError);
		},
	};
}

interface OpenedKeyv {
	keyv: Keyv;
	disconnect: () => Promise<void>;
}

async function openAdapters(scheme: string | undefined, storeUrl: string, namespaces: string[]): Promise<OpenedKeyv[]> {
	// Each adapter is imported only when configured: the Redis and Postgres clients alone cost ~4 MiB of heap.
	switch (scheme) {
		case 'sqlite':
			return Promise.all(namespaces.map(async (namespace) => openSqlite(storeUrl, namespace)));
		case 'redis':
		case 'rediss':
			return Promise.all(namespaces.map(async (namespace) => openRedis(storeUrl, namespace)));
		case 'postgres':
		case 'postgresql':
			return openPostgres(storeUrl, namespaces);
		default:
			throw new Error('STORE_URL must start with sqlite://, redis:// or postgres://');
	}
}

function wrap(store: KeyvStoreAdapter, namespace: string): Keyv {
	return new Keyv({ store, namespace, throwOnErrors: true });
}

async function openSqlite(storeUrl: string, namespace: string): Promise<OpenedKeyv> {
	const file = storeUrl.slice('sqlite://'.length);
	if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
	const { default: KeyvSqlite } = await import('@keyv/sqlite');
	const adapter = new KeyvSqlite({ uri: storeUrl, busyTimeout: SQLITE_BUSY_TIMEOUT_MS });
	// The adapter reports a failed open both by rejecting and by emitting; the rejection is what we act on.
	adapter.on('error', () => undefined);
	// WAL lets the two namespace connections (and a reader) work without blocking each other.
	await adapter.query('PRAGMA journal_mode = WAL');
	return { keyv: wrap(adapter, namespace), disconnect: async () => adapter.disconnect() };
}

async function openRedis(storeUrl: string, namespace: string): Promise<OpenedKeyv> {
	const { default: KeyvRedis } = await import('@keyv/redis');
	const adapter = new KeyvRedis(
		{
			url: storeUrl,
			// Without this, commands issued while Redis is down queue up and wait instead of failing.
			disableOfflineQueue: true,
			socket: {
				connectTimeout: CONNECT_TIMEOUT_MS,
				reconnectStrategy: (retries: number) => Math.min(2 ** retries * 100, 2000),
			},
		},
		{ namespace, throwOnErrors: true, throwOnConnectError: true, connectionTimeout: CONNECT_TIMEOUT_MS },
	);
	const keyv = new Keyv({ store: adapter, namespace, useKeyPrefix: false, throwOnErrors: true });
	return {
		keyv,
		disconnect: async () => {
			if (adapter.client.isOpen) await adapter.disconnect();
		},
	};
}

async function openPostgres(storeUrl: string, namespaces: string[]): Promise<OpenedKeyv[]> {
	const { default: KeyvPostgres } = await import('@keyv/postgres');
	// @keyv/postgres shares one module-level pool per URI, so it is ended once, by the first adapter.
	const adapters = namespaces.map(
		() =>
			new KeyvPostgres({
				uri: storeUrl,
				connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
				query_timeout: CONNECT_TIMEOUT_MS * 2,
				max: 10,
			}) satisfies KeyvStoreAdapter,
	);
	return adapters.map((adapter, index) => ({
		keyv: wrap(adapter, namespaces[index] ?? ''),
		disconnect: index === 0 ? async () => adapter.disconnect() : async () => undefined,
	}));
}
