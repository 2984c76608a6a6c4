import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StorageUnavailableError } from '../../src/errors.js';
import { createLinkStore } from '../../src/links/link-store.js';
import { OUTAGE_DEADLINE_MS, STORE_DEADLINE_MS } from '../../src/store/with-deadline.js';
import { openStores } from '../../src/store/open-stores.js';
import type { Stores } from '../../src/store/open-stores.js';
import { POSTGRES_URL, REDIS_URL, postgresBackend, redisBackend } from '../links/backends.js';
import { waitUntil } from '../links/wait-until.js';
import { startTcpProxy } from './tcp-proxy.js';
import type { ProxyMode, TcpProxy } from './tcp-proxy.js';

const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';
const RECOVERY_BOUND_MS = 15_000;
const FAULTS: ProxyMode[] = ['refuse', 'reset', 'stall', 'black-hole'];

/**
 * The fault DESIGN names (a store that accepts connections and never answers) runs at the production deadline, so
 * the bounds a member sees are asserted as they are. The other faults go through the same deadline code and run at a
 * short one, their bounds scaled from it: waiting out 3 s per fault adds nothing to what they show.
 */
const deadlineFor = (fault: ProxyMode) => (fault === 'stall' ? STORE_DEADLINE_MS : 1000);

function boundsFor(deadlineMs: number) {
	return {
		/** A member's command makes one or two store calls and has 8 s after acknowledging. */
		failure: deadlineMs + 1000,
		/** Three store calls in a row (the later ones at the outage deadline), leaving room for the rest of the command
		 * inside its 8 s: 6 s at the production deadline. */
		command: deadlineMs + 2 * Math.min(deadlineMs, OUTAGE_DEADLINE_MS) + 1000,
		close: 2 * deadlineMs + 1000,
	};
}

async function timed<T>(operation: Promise<T>): Promise<{ ms: number; result: T }> {
	const started = performance.now();
	const result = await operation;
	return { ms: performance.now() - started, result };
}

const linksOn = (stores: Stores) =>
	createLinkStore({
		keyv: stores.links,
		secret: Buffer.alloc(32, 3),
		verifyKey: async () => ({ accountName: 'acme' }),
	});

const targets = [
	{ backend: await redisBackend(), url: REDIS_URL },
	{ backend: await postgresBackend(), url: POSTGRES_URL },
];

for (const { backend, url } of targets) {
	if (backend.unavailable) {
		if (process.env.CI === 'true')
			test(`${backend.name} is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		else test(`store faults on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		continue;
	}

	describe(`store faults on ${backend.name}`, () => {
		let proxy: TcpProxy;
		before(async () => {
			proxy = await startTcpProxy(url);
		});
		after(async () => proxy.close());

		for (const fault of FAULTS) {
			test(`${fault} (deadline ${deadlineFor(fault)} ms): storage unavailable within the bound, recovery after it passes again, bounded close`, async (t) => {
				await proxy.setMode('pass');
				const prefix = `faults${process.pid}${fault}-`;
				const deadlineMs = deadlineFor(fault);
				const bounds = boundsFor(deadlineMs);
				const stores = await openStores(proxy.url, { namespacePrefix: prefix, onError: () => undefined, deadlineMs });
				let closed = false;
				t.after(async () => {
					await proxy.setMode('pass');
					if (!closed) {
						await linksOn(stores)
							.removeUserLink('1')
							.catch(() => undefined);
						await stores.close();
					}
				});
				const links = linksOn(stores);
				await links.linkUser('1', KEY);

				await proxy.setMode(fault);
				// What one command may do in a row: each call fails, and all of them well within the 8 s.
				const calls = [
					async () => links.getUserKey('1'),
					async () => links.getServerLink('1'),
					async () => links.linkUser('1', KEY),
				];
				const outage = await timed(
					(async () => {
						for (const [index, call] of calls.entries()) {
							const { ms, result } = await timed(
								call().then(
									() => null,
									(error: unknown) => error,
								),
							);
							assert.ok(
								result instanceof StorageUnavailableError,
								`expected storage unavailable, got ${String(result)}`,
							);
							if (index === 0) assert.ok(ms < bounds.failure, `the first call failed after ${Math.round(ms)} ms`);
						}
					})(),
				);
				assert.ok(outage.ms < bounds.command, `three calls in a row took ${Math.round(outage.ms)} ms`);

				await proxy.setMode('pass');
				const { ms: recoveredAfter } = await timed(
					waitUntil(
						async () => (await links.getUserKey('1').catch(() => null))?.apiKey === KEY,
						RECOVERY_BOUND_MS,
						100,
					),
				);
				t.diagnostic(`recovered ${Math.round(recoveredAfter)} ms after the store answered again`);

				await proxy.setMode(fault);
				// An operation under way while closing must not hold close() up either.
				const pending = links.getUserKey('1').catch(() => undefined);
				const { ms: closeMs } = await timed(stores.close());
				closed = true;
				await pending;
				assert.ok(closeMs < bounds.close, `close took ${Math.round(closeMs)} ms`);
				await proxy.setMode('pass');
				const cleanup = await openStores(url, { namespacePrefix: prefix });
				await linksOn(cleanup).removeUserLink('1');
				await cleanup.close();
			});
		}

		test('a reconnect under way is waited for: five concurrent reads as the store comes back all succeed', async (t) => {
			await proxy.setMode('refuse');
			const stores = await openStores(proxy.url, {
				namespacePrefix: `comeback${process.pid}-`,
				onError: () => undefined,
			});
			t.after(async () => stores.close());
			await proxy.setMode('pass');
			const reads = await Promise.allSettled(Array.from({ length: 5 }, async () => stores.links.get('nothing')));
			assert.deepEqual(
				reads.map((read) => read.status),
				['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
				String(reads.find((read) => read.status === 'rejected')?.reason),
			);
		});
	});
}
