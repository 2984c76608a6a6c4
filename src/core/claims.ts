// The one place features take claims and locks from: what runs once across processes, and the lock per record.
// Each backend's claims stay in src/store/ (redis-claims, postgres-claims, sqlite-claims).
import type { Coordinator } from '../store/claim-types.js';

export type { ClaimResult, Coordinator } from '../store/claim-types.js';
export { claimLock, createKeyedMutex, type WithLock } from '../store/locks.js';
export { openCoordinator } from '../store/coordination.js';

/**
 * True for the one caller, across every process sharing the store, that first claims `key`; the claim is never
 * released, it expires after `ttlMs` (rounded up: the store takes whole milliseconds).
 */
export function claimOnce(coordinator: Pick<Coordinator, 'claim'>): (key: string, ttlMs: number) => Promise<boolean> {
	return async (key, ttlMs) => (await coordinator.claim(key, Math.ceil(ttlMs))).claimed;
}
