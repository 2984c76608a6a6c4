// The claim API and what each backend implements, apart from the opener so backends need not import it.

export type ClaimResult = { claimed: true; release(): Promise<void> } | { claimed: false; retryAfterMs: number };

export interface Coordinator {
	/** Atomically takes `key` for ttlMs unless someone holds it unexpired. */
	claim(key: string, ttlMs: number): Promise<ClaimResult>;
	close(): Promise<void>;
}

/** What one backend implements; keys arrive prefixed, `token` tells holders apart. */
export interface ClaimBackend {
	tryClaim(key: string, token: string, ttlMs: number): Promise<ClaimResult>;
	close(): Promise<void>;
}

export interface ClaimBackendSettings {
	deadlineMs: number;
	now: () => number;
	onError: (e: unknown) => void;
}
