// The shared stores the scale tests run on, and the rule for a missing server: skipped with the
// reason locally, a failing test under CI=true.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { POSTGRES_URL, REDIS_URL, postgresBackend, redisBackend } from '../links/backends.js';

export interface SharedStore {
	name: 'redis' | 'postgres';
	url: string;
	unavailable: string | null;
}

export async function sharedStores(): Promise<SharedStore[]> {
	return [
		{ name: 'redis', url: REDIS_URL, unavailable: (await redisBackend()).unavailable },
		{ name: 'postgres', url: POSTGRES_URL, unavailable: (await postgresBackend()).unavailable },
	];
}

/** True when the store can be used; otherwise registers the skip (or, in CI, the failure). */
export function usable(store: SharedStore, title: string): boolean {
	if (!store.unavailable) return true;
	if (process.env.CI === 'true')
		test(`${title}: ${store.name} is reachable in CI`, () => assert.fail(store.unavailable!));
	else test(`${title} on ${store.name}`, (t) => t.skip(store.unavailable!));
	return false;
}

/** Ids no earlier run used, so runs on one Redis or PostgreSQL never meet each other's links. */
export function uniqueSnowflake(prefix: string): string {
	const tail = `${Date.now()}${Math.floor(Math.random() * 1e4)}`.padStart(17, '0').slice(-17);
	return `${prefix}${tail}`.slice(0, 18);
}
