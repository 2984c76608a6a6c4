import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { checkHealth, PROBE_DEADLINE_MS, type HealthProbe } from '../../src/metrics/index.js';

const hang: HealthProbe = () => new Promise(() => {});

describe('checkHealth', { timeout: 10_000 }, () => {
	it('is ready when every probe passes', async () => {
		const report = await checkHealth({
			gateway: async () => true,
			store: async () => ({ ok: true, detail: 'sqlite' }),
		});
		assert.deepEqual(report, {
			ready: true,
			checks: [
				{ name: 'gateway', ok: true },
				{ name: 'store', ok: true, detail: 'sqlite' },
			],
		});
	});

	it('is not ready when one probe fails, and says which', async () => {
		const report = await checkHealth({
			gateway: async () => ({ ok: false, detail: 'shard 1 reconnecting' }),
			store: async () => true,
		});
		assert.equal(report.ready, false);
		assert.deepEqual(report.checks[0], { name: 'gateway', ok: false, detail: 'shard 1 reconnecting' });
		assert.equal(report.checks[1]?.ok, true);
	});

	it('fails a hanging probe within about a second and aborts its signal', async () => {
		let seen: AbortSignal | undefined;
		const started = performance.now();
		const report = await checkHealth({
			store: (signal) => {
				seen = signal;
				return new Promise(() => {});
			},
		});
		const elapsed = performance.now() - started;
		assert.equal(report.ready, false);
		assert.deepEqual(report.checks, [{ name: 'store', ok: false, detail: `no answer within ${PROBE_DEADLINE_MS} ms` }]);
		assert.ok(elapsed >= PROBE_DEADLINE_MS - 50 && elapsed < PROBE_DEADLINE_MS + 1000, `took ${elapsed} ms`);
		assert.equal(seen?.aborted, true);
	});

	it('runs probes side by side, so three hanging probes take one deadline', async () => {
		const started = performance.now();
		const report = await checkHealth({ store: hang, gateway: hang, cache: hang, http: async () => true }, 400);
		const elapsed = performance.now() - started;
		assert.deepEqual(
			report.checks.map((check) => [check.name, check.ok]),
			[
				['store', false],
				['gateway', false],
				['cache', false],
				['http', true],
			],
		);
		assert.ok(elapsed < 1000, `took ${elapsed} ms, one after another would take 1200`);
	});

	it('reports a thrown error by its kind only, never its message', async () => {
		const report = await checkHealth({
			store: async () => {
				throw Object.assign(new Error('connect postgres://bot:hunter2@db/links failed'), { code: 'ECONNREFUSED' });
			},
			sync: (() => {
				throw new TypeError('key sk_live_abc is bad');
			}) as HealthProbe,
		});
		assert.deepEqual(report.checks, [
			{ name: 'store', ok: false, detail: 'Error (ECONNREFUSED)' },
			{ name: 'sync', ok: false, detail: 'TypeError' },
		]);
		assert.doesNotMatch(JSON.stringify(report), /hunter2|sk_live/);
	});

	it('is ready with no probes at all', async () => {
		assert.deepEqual(await checkHealth({}), { ready: true, checks: [] });
	});
});
