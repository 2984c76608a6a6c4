import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EPHEMERAL } from '../app/harness.js';
import { startTcpProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { startHttpWorkers, type HttpWorkers } from './http-workers.js';
import { sharedStores, uniqueSnowflake, usable } from './shared-stores.js';

const AUTO_DEFER_MS = 300;

// A worker whose store stalls: the handler cannot answer in time, so the private defer Discord's 3 s
// need goes out for it, and its answer, once the store is back, still reaches the member as the edit.
const redis = (await sharedStores()).find((store) => store.name === 'redis')!;
if (usable(redis, 'HTTP interactions mode: the automatic defer')) {
	describe('HTTP interactions mode: a handler slower than the automatic defer', () => {
		let w: HttpWorkers;
		let proxy: TcpProxy;

		before(async () => {
			proxy = await startTcpProxy(redis.url);
			w = await startHttpWorkers({
				storeUrl: proxy.url,
				count: 1,
				autoDeferMs: AUTO_DEFER_MS,
				// The cooldown is claimed in the store before /stats defers: a stalled store holds the first answer.
				env: { STATS_COOLDOWN_SECONDS: '30' },
			});
		});
		after(async () => {
			await proxy.setMode('pass');
			w.sandbox.assertNoViolations();
			await w.close();
			await proxy.close();
		});

		it('a command held up by its store is deferred privately, and its reply becomes the edit', async () => {
			await proxy.setMode('stall');
			const handle = w.sandbox.dispatchCommand({ name: 'stats', userId: uniqueSnowflake('34') });
			const first = await handle.firstResponse();
			assert.equal(first.type, 5);
			assert.equal(first.flags & EPHEMERAL, EPHEMERAL);
			assert.ok(first.at >= AUTO_DEFER_MS - 50 && first.at < 3000, `deferred after ${first.at} ms`);
			await proxy.setMode('pass');
			const message = await handle.finalMessage();
			assert.ok(message.isEphemeral);
			assert.match(message.content, /You have not linked an API key yet/);
			assert.equal(handle.callbackAttempts, 1);
			assert.ok(
				handle.edits.some((edit) => edit.status < 300),
				'the handler answer went out as the edit',
			);
			assert.ok(w.logs.some((line) => line.includes('deferred for it')));
		});

		it('a stop lets the interaction in flight finish before the worker closes', async () => {
			await proxy.setMode('stall');
			const handle = w.sandbox.dispatchCommand({ name: 'stats', userId: uniqueSnowflake('36') });
			await handle.firstResponse();
			let stopped = false;
			const stopping = w.workers[0]!.stop().then(() => (stopped = true));
			const deadline = Date.now() + 10_000;
			while (!w.logs.some((line) => line.includes('shutting down: finishing replies in flight'))) {
				assert.ok(Date.now() < deadline, 'the stop began');
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			assert.equal(stopped, false, 'still draining while the store stalls');
			await proxy.setMode('pass');
			assert.match((await handle.finalMessage()).content, /You have not linked an API key yet/);
			await stopping;
			assert.equal(handle.callbackAttempts, 1);
		});
	});
}
