import type { ClaimBackend, ClaimBackendSettings } from './claim-types.js';
import { openRedisConnection } from './redis-connection.js';

// Deletes the claim only while it still holds our token: once it expired, it may be someone else's.
const RELEASE_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export async function openRedisClaims(storeUrl: string, settings: ClaimBackendSettings): Promise<ClaimBackend> {
	const connection = await openRedisConnection(storeUrl, settings);
	return {
		tryClaim: async (key, token, ttlMs) => {
			const taken = await connection.run(async (client) => client.set(key, token, { NX: true, PX: ttlMs }));
			if (taken === 'OK') {
				return {
					claimed: true,
					release: async () => {
						await connection.run(async (client) => client.eval(RELEASE_IF_HELD, { keys: [key], arguments: [token] }));
					},
				};
			}
			const remaining = await connection.run(async (client) => client.pTTL(key));
			// -2: expired between the two calls; -1 cannot happen (every claim has a TTL) but must not read as "wait".
			return { claimed: false, retryAfterMs: Math.max(0, remaining) };
		},
		keys: async function* (prefix) {
			const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
			let cursor = '0';
			do {
				const result = await connection.run(async (client) => client.scan(cursor, { MATCH: match, COUNT: 500 }));
				cursor = String(result.cursor);
				yield* result.keys;
			} while (cursor !== '0');
		},
		remove: async (key) => {
			await connection.run(async (client) => client.del(key));
		},
		close: async () => connection.close(),
	};
}
