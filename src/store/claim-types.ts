// The claim API and what each backend implements, apart from the opener so backends need not import it.

export type ClaimResult = { claimed: true; release(): Promise<void> } | { claimed: false; retryAfterMs: number };

export interface Coordinator {
	/** Atomically takes `key` for ttlMs unless someone holds it unexpired. */
	claim(key: string, ttlMs: number): Promise<ClaimResult>;
	/**
	 * Every claim key stored, expired ones included (a SQL row outlives its expiry until taken again), without the
	 * store's prefix: what forgetting a member or purging a server walks, as claim keys name them.
	 */
	keys(): AsyncIterable<string>;
	/** Deletes the claim whoever holds it. */
	remove(key: string): Promise<void>;
	close(): Promise<void>;
}

/** What one backend implements; keys arrive prefixed, `token` tells holders apart. */
export interface ClaimBackend {
	tryClaim(key: string, token: string, ttlMs: number): Promise<ClaimResult>;
	/** Every stored key starting with `prefix` (prefix kept), read a page at a time. */
	keys(prefix: string): AsyncIterable<string>;
	remove(key: string): Promise<void>;
	close(): Promise<void>;
}

export interface ClaimBackendSettings {
	deadlineMs: number;
	now: () => number;
	onError: (e: unknown) => void;
}
