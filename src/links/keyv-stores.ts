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
	onError?: ErrorListener;
}

type ErrorListener = (error: unknown) => void;

/**
 * Opens one Keyv per namespace on `sqlite://path`, `redis://…` or `postgres://…`. Every operation
 * throws when the backend fails, so an outage can never read as "nothing stored".
 * Expired entries: Redis drops them itself (Keyv passes the TTL as PX); SQLite files are purged every
 * 10 minutes until close(); on Postgres Keyv deletes an expired row when it is next read.
 */
export async function openStores(storeUrl: string, options: OpenStoresOptions = {}): Promise<Stores> {
	const prefix = options.namespacePrefix ?? '';
	const onError = options.onError ?? (() => undefined);
	const scheme = /^([a-z]+):\/\//.exec(storeUrl)?.[1];
	const namespaces = [prefix + LINKS_NAMESPACE, prefix + CACHE_NAMESPACE];
	const adapters = await openAdapters(scheme, storeUrl, namespaces, onError);
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

async function openAdapters(
	scheme: string | undefined,
	storeUrl: string,
	namespaces: string[],
	onError: ErrorListener,
): Promise<OpenedKeyv[]> {
	// Each adapter is imported only when configured: the Redis and Postgres clients alone cost ~4 MiB of heap.
	switch (scheme) {
		case 'sqlite':
			return openSqlite(storeUrl, namespaces, onError);
		case 'redis':
		case 'rediss':
			return Promise.all(namespaces.map(async (namespace) => openRedis(storeUrl, namespace)));
		case 'postgres':
		case 'postgresql':
			return openPostgres(storeUrl, namespaces, onError);
		default:
			throw new Error('STORE_URL must start with sqlite://, redis:// or postgres://');
	}
}

function wrap(store: KeyvStoreAdapter, namespace: string): Keyv {
	return new Keyv({ store, namespace, throwOnErrors: true });
}

async function openSqlite(storeUrl: string, namespaces: string[], onError: ErrorListener): Promise<OpenedKeyv[]> {
	const file = storeUrl.slice('sqlite://'.length);
	if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
	const [{ default: KeyvSqlite }, { startSqlitePurge }] = await Promise.all([
		import('@keyv/sqlite'),
		import('./sqlite-purge.js'),
	]);
	// One connection at a time: two connections creating the table and switching a fresh file to WAL
	// at once can fail with SQLITE_BUSY, which the busy timeout does not cover.
	const adapters: InstanceType<typeof KeyvSqlite>[] = [];
	for (const _namespace of namespaces) {
		const adapter = new KeyvSqlite({ uri: storeUrl, busyTimeout: SQLITE_BUSY_TIMEOUT_MS });
		// The adapter reports a failed open both by rejecting and by emitting; the rejection is what we act on.
		adapter.on('error', () => undefined);
		// WAL lets the two namespace connections (and a reader) work without blocking each other.
		await adapter.query('PRAGMA journal_mode = WAL');
		adapters.push(adapter);
	}
	// One purge covers the whole file, every namespace; it runs on the first connection.
	const purge = adapters[0] ? startSqlitePurge(adapters[0], onError) : null;
	return adapters.map((adapter, index) => ({
		keyv: wrap(adapter, namespaces[index] ?? ''),
		disconnect: async () => {
			if (index === 0) await purge?.stop();
			await adapter.disconnect();
		},
	}));
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

async function openPostgres(storeUrl: string, namespaces: string[], onError: ErrorListener): Promise<OpenedKeyv[]> {
	const { openPostgresPool, PostgresStore } = await import('./postgres-store.js');
	const pool = openPostgresPool(storeUrl, {
		connectTimeoutMs: CONNECT_TIMEOUT_MS,
		queryTimeoutMs: CONNECT_TIMEOUT_MS * 2,
		max: 10,
		onError,
	});
	// Both namespaces share the pool, so it is ended once, by the first.
	return namespaces.map((namespace, index) => ({
		keyv: wrap(new PostgresStore(pool), namespace),
		disconnect: index === 0 ? async () => pool.end() : async () => undefined,
	}));
}
