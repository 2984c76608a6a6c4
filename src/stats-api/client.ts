import type Keyv from 'keyv';
import { SnapshotCache, STALE_WINDOW_MS } from './cache.js';
import type { CachedSnapshot } from './cache.js';
import { UpstreamUnreachableError } from '../errors.js';
import { createStatsAgent, DEFAULT_USER_AGENT, getStats, type AttemptResult } from './http.js';
import type { StatsResult, StatsSnapshot } from './snapshot.js';
import type { Agent } from 'undici';

export interface StatsClientOptions {
	/** `{base_url}` without the `/api/v1/stats` path. */
	baseUrl: string;
	/** Budget for one fetch, retry included. */
	timeoutMs: number;
	/** How long a snapshot is reused; 0 disables reuse (the stale fallback still applies). */
	cacheTtlSeconds: number;
	/** Keyv namespaced for the cache, on the same backend as the links. */
	cache: Keyv;
	/** LINK_SECRET; the cache derives its own HMAC key from it. */
	cacheSecret: Buffer;
	userAgent?: string;
	/** Epoch ms; injectable so tests can move time. */
	now?: () => number;
	/** Called once per HTTP attempt (retries included). */
	onUpstreamRequest?: () => void;
	/**
	 * Single flight across processes sharing the store: only the holder of a key's claim calls the
	 * endpoint; the others wait for its snapshot to appear in the shared cache.
	 */
	flights?: FlightClaims;
	/** Every snapshot fetched from the endpoint (not cache hits), e.g. to fold it into the history. */
	onFreshSnapshot?: (snapshot: StatsSnapshot, fetchedAt: number) => void;
	/** Each HTTP attempt once it ended: its status, or `network` / `timeout`; for metrics. */
	onUpstreamResult?: (result: AttemptResult, seconds: number) => void;
	/**
	 * Each fetchSnapshot lookup (callers joining one in progress share it): `hit` a fresh snapshot was in a cache,
	 * `miss` the endpoint was asked, `stale` it failed and an older snapshot was served instead.
	 */
	onCacheLookup?: (result: 'hit' | 'miss' | 'stale') => void;
}

export interface FlightClaims {
	claim(
		key: string,
		ttlMs: number,
	): Promise<{ claimed: true; release(): Promise<void> } | { claimed: false; retryAfterMs: number }>;
}

/** How often a process that lost the claim looks for the winner's snapshot. */
const FLIGHT_POLL_MS = 25;

/** The part of the stats client the use cases read through. */
export type StatsSource = Pick<StatsClient, 'fetchSnapshot'>;

export interface StatsClient {
	/** Cache, then one shared upstream call per key; a snapshot up to an hour old stands in when unreachable. */
	fetchSnapshot(apiKey: string): Promise<StatsResult>;
	/** Always one upstream call, no stale fallback; the result refreshes the cache. */
	verifyKey(apiKey: string): Promise<StatsSnapshot>;
	/** HTTP attempts made so far (retries included). */
	readonly upstreamRequests: number;
	/** Closes the connection pool. */
	close(): Promise<void>;
}

const MAX_RECENT_SNAPSHOTS = 1000;

export function createStatsClient(options: StatsClientOptions): StatsClient {
	const now = options.now ?? Date.now;
	const baseUrl = options.baseUrl.replace(/\/+$/, '');
	// Made with the first call: undici is loaded then (or once the bot is ready), not during start-up.
	let agent: Agent | null = null;
	const cache = new SnapshotCache(options.cache, options.cacheSecret);
	const ttlMs = options.cacheTtlSeconds * 1000;
	const inFlight = new Map<string, Promise<StatsResult>>();
	// This process's latest snapshots, so a fresh one costs no store round trip; the shared store
	// still answers for snapshots other shards fetched. Bounded: the oldest entry goes first.
	const recent = new Map<string, CachedSnapshot>();
	const remember = (cacheKey: string, entry: CachedSnapshot) => {
		recent.delete(cacheKey);
		recent.set(cacheKey, entry);
		if (recent.size > MAX_RECENT_SNAPSHOTS) recent.delete(recent.keys().next().value as string);
	};
	const isFresh = (entry: CachedSnapshot | null | undefined): entry is CachedSnapshot =>
		entry !== null && entry !== undefined && ttlMs > 0 && now() - entry.fetchedAt < ttlMs;
	let upstreamRequests = 0;

	const fetchUpstream = async (apiKey: string): Promise<StatsSnapshot> =>
		getStats(apiKey, {
			dispatcher: (agent ??= createStatsAgent(options.timeoutMs)),
			baseUrl,
			timeoutMs: options.timeoutMs,
			userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
			now,
			onAttempt: () => {
				upstreamRequests += 1;
				options.onUpstreamRequest?.();
			},
			onAttemptResult: options.onUpstreamResult,
		});

	const fetchAndStore = async (apiKey: string, cacheKey: string): Promise<CachedSnapshot> => {
		const fresh = { snapshot: await fetchUpstream(apiKey), fetchedAt: now() };
		remember(cacheKey, fresh);
		options.onFreshSnapshot?.(fresh.snapshot, fresh.fetchedAt);
		await cache.write(cacheKey, fresh);
		return fresh;
	};

	/**
	 * One upstream call per key across processes: the claim holder fetches; the others poll the shared
	 * cache for its result until the budget is spent, then call themselves rather than fail the member.
	 * A store that cannot be asked costs coordination, never the answer.
	 */
	const fetchOnceAcrossProcesses = async (apiKey: string, cacheKey: string): Promise<CachedSnapshot> => {
		const flights = options.flights;
		if (!flights || ttlMs === 0) return fetchAndStore(apiKey, cacheKey);
		const deadline = Date.now() + options.timeoutMs;
		const startedAt = now();
		for (;;) {
			const claim = await flights.claim(`stats-flight:${cacheKey}`, options.timeoutMs + 1000).catch(() => null);
			if (claim === null) return fetchAndStore(apiKey, cacheKey);
			if (claim.claimed) {
				try {
					// Another process may have stored it between our cache read and its release of the claim.
					const stored = await cache.read(cacheKey).catch(() => null);
					if (isFresh(stored) && stored.fetchedAt >= startedAt - ttlMs) {
						remember(cacheKey, stored);
						return stored;
					}
					return await fetchAndStore(apiKey, cacheKey);
				} finally {
					await claim.release().catch(() => undefined);
				}
			}
			if (Date.now() >= deadline) return fetchAndStore(apiKey, cacheKey);
			await new Promise((resolve) => setTimeout(resolve, Math.min(FLIGHT_POLL_MS, claim.retryAfterMs + 1)));
			const shared = await cache.read(cacheKey).catch(() => null);
			if (shared && shared.fetchedAt >= startedAt - ttlMs && isFresh(shared)) {
				remember(cacheKey, shared);
				return shared;
			}
		}
	};

	const lookedUp = (result: 'hit' | 'miss' | 'stale') => options.onCacheLookup?.(result);

	const resolve = async (apiKey: string, cacheKey: string): Promise<StatsResult> => {
		const local = recent.get(cacheKey);
		if (isFresh(local)) {
			lookedUp('hit');
			return { ...local, isStale: false };
		}
		const cached = await cache.read(cacheKey);
		if (isFresh(cached)) {
			lookedUp('hit');
			remember(cacheKey, cached);
			return { ...cached, isStale: false };
		}
		try {
			const fetched = await fetchOnceAcrossProcesses(apiKey, cacheKey);
			lookedUp('miss');
			return { ...fetched, isStale: false };
		} catch (error) {
			// Only an unreachable endpoint is bridged: a rejected key must not keep showing old figures.
			if (!(error instanceof UpstreamUnreachableError)) {
				lookedUp('miss');
				throw error;
			}
			const fallback = (await cache.read(cacheKey)) ?? cached ?? local;
			if (fallback && now() - fallback.fetchedAt <= STALE_WINDOW_MS) {
				lookedUp('stale');
				return { ...fallback, isStale: true };
			}
			lookedUp('miss');
			throw error;
		}
	};

	return {
		fetchSnapshot(apiKey) {
			const cacheKey = cache.keyFor(apiKey);
			const pending = inFlight.get(cacheKey);
			if (pending) return pending;
			// Registered before the first await, so callers arriving together share the cache read too.
			const flight = resolve(apiKey, cacheKey).finally(() => inFlight.delete(cacheKey));
			inFlight.set(cacheKey, flight);
			return flight;
		},
		verifyKey: async (apiKey) => (await fetchAndStore(apiKey, cache.keyFor(apiKey))).snapshot,
		get upstreamRequests() {
			return upstreamRequests;
		},
		close: async () => agent?.close(),
	};
}
