import { StorageUnavailableError } from '../errors.js';
import type { Coordinator } from './claim-types.js';

/** Runs `fn` while holding the lock named `key`; the history store wraps every read-modify-write in one. */
export type WithLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

/**
 * An in-process lock per key: calls with the same key run one after another, others do not wait.
 * It covers one process only; processes sharing a store need a lock on the store itself.
 */
export function createKeyedMutex(): WithLock {
	// The tail of each key's queue; removed when the last holder finishes, so idle keys cost nothing.
	const tails = new Map<string, Promise<void>>();
	return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
		const previous = tails.get(key) ?? Promise.resolve();
		let release = () => undefined as void;
		const done = new Promise<void>((resolve) => {
			release = resolve;
		});
		const tail = previous.then(() => done);
		tails.set(key, tail);
		await previous;
		try {
			return await fn();
		} finally {
			release();
			if (tails.get(key) === tail) tails.delete(key);
		}
	};
}

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
