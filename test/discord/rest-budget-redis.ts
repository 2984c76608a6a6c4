// What the tests that read the shared REST budget straight from Redis share: a client connected for their
// tests, a namespace of their own per test, each second's count as the store holds it, and the clean-up.
import { after, before } from 'node:test';
import { createClient } from '@redis/client';
import { REDIS_URL } from '../links/backends.js';

export interface RestBudgetOnRedis {
	/** A fresh namespace prefix on the shared Redis, so runs never meet. */
	prefix(): string;
	/** The budget's per-second counts under `namespacePrefix`, by store key. */
	secondCounts(namespacePrefix: string): Promise<Map<string, number>>;
	/** Deletes every key under `namespacePrefix`. */
	removeRun(namespacePrefix: string): Promise<void>;
}

/** Call in a file's or a describe's body: the client is connected before its tests and closed after them. */
export function restBudgetOnRedis(label: string): RestBudgetOnRedis {
	let raw: ReturnType<typeof createClient> | undefined;
	const client = () => {
		if (!raw) throw new Error('the Redis client is connected in a before hook: use it inside a test');
		return raw;
	};
	before(async () => {
		raw = createClient({ url: REDIS_URL });
		await raw.connect();
	});
	after(() => {
		raw?.destroy();
	});
	return {
		prefix: () => `${label}${process.pid}x${Math.random().toString(36).slice(2, 8)}-`,
		secondCounts: async (namespacePrefix) => {
			const keys = (await client().keys(`${namespacePrefix}rest-budget:*`)).filter((key) => /:\d+$/.test(key));
			if (keys.length === 0) return new Map();
			const values = await client().mGet(keys);
			return new Map(keys.map((key, i) => [key, Number(values[i] ?? 0)]));
		},
		removeRun: async (namespacePrefix) => {
			const keys = await client().keys(`${namespacePrefix}*`);
			if (keys.length > 0) await client().del(keys);
		},
	};
}
