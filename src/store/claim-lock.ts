import { StorageUnavailableError } from '../links/errors.js';
import type { Coordinator } from './claim-types.js';

const LOCK_TTL_MS = 10_000;
const RETRY_MS = 20;

/**
 * A lock over the shared store's claims: `fn` runs while this process holds `lock:<key>`, so a
 * read-modify-write of one record is never interleaved across processes. Waits up to `waitMs`.
 */
export function claimLock(coordinator: Pick<Coordinator, 'claim'>, waitMs = 5000) {
	return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
		const deadline = Date.now() + waitMs;
		for (;;) {
			const claim = await coordinator.claim(`lock:${key}`, LOCK_TTL_MS);
			if (claim.claimed) {
				try {
					return await fn();
				} finally {
					await claim.release().catch(() => undefined);
				}
			}
			if (Date.now() >= deadline) throw new StorageUnavailableError({ cause: new Error(`lock ${key} stays taken`) });
			await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, claim.retryAfterMs + 1)));
		}
	};
}
