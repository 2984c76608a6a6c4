import assert from 'node:assert/strict';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import {
	aggregateSnapshots,
	checkHealth,
	createMetrics,
	metricsSnapshot,
	startMetricsServer,
	type HealthReport,
	type MetricsServerOptions,
	type RunningMetricsServer,
} from '../../src/metrics/index.js';
import { CLOSE_DEADLINE_MS, HEALTH_DEADLINE_MS } from '../../src/metrics/server.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';

const COMMANDS = ['stats', 'link'] as const;
const READY: HealthReport = { ready: true, checks: [{ name: 'gateway', ok: true }] };

const servers: RunningMetricsServer[] = [];
after(() => Promise.all(servers.map((server) => server.close())));

async function serve(overrides: Partial<MetricsServerOptions> = {}) {
	const metrics = createMetrics({ commands: COMMANDS });
	const server = await startMetricsServer({ port: 0, metrics, health: async () => READY, ...overrides });
	servers.push(server);
	return { metrics, server };
}

describe('startMetricsServer', { timeout: 90_000 }, () => {
	it('listens on a free port on loopback when asked for port 0', async () => {
		const { server } = await serve();
		assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
		assert.notEqual(new URL(server.url).port, '0');
	});

	it('serves the Prometheus text format with its content type', async () => {
		const { metrics, server } = await serve();
		metrics.interactions.inc({ command: 'stats', outcome: 'answered' });
		metrics.recordUpstream(503, 0.2);
		const response = await fetch(`${server.url}/metrics`);
		assert.equal(response.status, 200);
		assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
		const exposition = parsePrometheusText(await response.text());
		assert.equal(sampleValue(exposition, 'adstats_interactions_total', { command: 'stats', outcome: 'answered' }), 1);
		assert.equal(sampleValue(exposition, 'adstats_upstream_requests_total', { status_class: '5xx' }), 1);
		assert.equal(exposition.types.get('nodejs_eventloop_lag_p99_seconds'), 'gauge');
	});

	it('answers HEAD with the headers and no body', async () => {
		const { server } = await serve();
		const response = await fetch(`${server.url}/metrics`, { method: 'HEAD' });
		assert.equal(response.status, 200);
		assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
		assert.equal(await response.text(), '');
	});

	it('serves the aggregate of several processes from a registry source', async () => {
		const children = [0, 1].map(() => createMetrics({ commands: COMMANDS, collectDefault: false }));
		children[0]!.storeErrors.inc({ operation: 'write' });
		children[1]!.storeErrors.inc({ operation: 'write' });
		const { server } = await serve({
			metrics: async () => aggregateSnapshots(await Promise.all(children.map((child) => metricsSnapshot(child)))),
		});
		const exposition = parsePrometheusText(await (await fetch(`${server.url}/metrics`)).text());
		assert.equal(sampleValue(exposition, 'adstats_store_errors_total', { operation: 'write' }), 2);
	});

	it('answers 500 and tells onError when collecting fails', async () => {
		const errors: unknown[] = [];
		const { server } = await serve({
			metrics: async () => Promise.reject(new Error('shard 3 did not answer')),
			onError: (error) => errors.push(error),
		});
		const response = await fetch(`${server.url}/metrics`);
		assert.equal(response.status, 500);
		assert.doesNotMatch(await response.text(), /shard 3/);
		assert.equal(errors.length, 1);
	});

	it('answers /healthz 200 with the checks when ready', async () => {
		const { server } = await serve();
		const response = await fetch(`${server.url}/healthz`);
		assert.equal(response.status, 200);
		assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
		assert.deepEqual(await response.json(), { status: 'ok', checks: READY.checks });
	});

	it('answers /healthz 503 with the reason when a check fails', async () => {
		const { server } = await serve({
			health: () =>
				checkHealth({
					gateway: async () => ({ ok: false, detail: 'shard 0 reconnecting' }),
					store: async () => true,
				}),
		});
		const response = await fetch(`${server.url}/healthz`);
		assert.equal(response.status, 503);
		const body = (await response.json()) as { status: string; reason: string; checks: unknown[] };
		assert.equal(body.status, 'unavailable');
		assert.equal(body.reason, 'gateway: shard 0 reconnecting');
		assert.equal(body.checks.length, 2);
	});

	it('answers /healthz 503 within about a second when the store probe hangs', async () => {
		const { server } = await serve({
			health: () => checkHealth({ gateway: async () => true, store: () => new Promise(() => {}) }),
		});
		const started = performance.now();
		const response = await fetch(`${server.url}/healthz`);
		const elapsed = performance.now() - started;
		assert.equal(response.status, 503);
		// The probe's own deadline answered, not the server's later one for health() as a whole.
		assert.equal(((await response.json()) as { reason: string }).reason, 'store: no answer within 1000 ms');
		assert.ok(elapsed < HEALTH_DEADLINE_MS + 500, `took ${elapsed} ms`);
	});

	it('answers /healthz 503 when health() itself never answers or throws, without its message', async () => {
		const hanging = await serve({ health: () => new Promise(() => {}) });
		const hung = await fetch(`${hanging.server.url}/healthz`);
		assert.equal(hung.status, 503);
		assert.equal(
			((await hung.json()) as { reason: string }).reason,
			`health check gave no answer within ${HEALTH_DEADLINE_MS} ms`,
		);

		const throwing = await serve({ health: async () => Promise.reject(new Error('redis://:s3cret@cache down')) });
		const thrown = await fetch(`${throwing.server.url}/healthz`);
		assert.equal(thrown.status, 503);
		const text = await thrown.text();
		assert.doesNotMatch(text, /s3cret/);
		assert.equal((JSON.parse(text) as { reason: string }).reason, 'health check failed (Error)');
	});

	it('keeps /livez at 200 while readiness fails', async () => {
		const { server } = await serve({ health: async () => ({ ready: false, checks: [] }) });
		assert.equal((await fetch(`${server.url}/healthz`)).status, 503);
		const live = await fetch(`${server.url}/livez`);
		assert.equal(live.status, 200);
		assert.deepEqual(await live.json(), { status: 'alive' });
	});

	it('answers 404 elsewhere and 405 with Allow to other methods', async () => {
		const { server } = await serve();
		for (const path of ['/', '/metrics/', '/health', '/healthz/x']) {
			assert.equal((await fetch(`${server.url}${path}`)).status, 404, path);
		}
		assert.equal((await fetch(`${server.url}/metrics?name=x`)).status, 200);
		for (const method of ['POST', 'PUT', 'DELETE']) {
			const response = await fetch(`${server.url}/healthz`, { method });
			assert.equal(response.status, 405, method);
			assert.equal(response.headers.get('allow'), 'GET, HEAD');
		}
	});

	it('closes within its deadline while a health answer is pending on an open connection', async () => {
		const metrics = createMetrics({ commands: COMMANDS, collectDefault: false });
		let called = false;
		const server = await startMetricsServer({
			port: 0,
			metrics,
			health: () => {
				called = true;
				return new Promise(() => {});
			},
		});
		const pending = new Promise<string>((resolve) => {
			const req = request(`${server.url}/healthz`, { agent: false }, () => resolve('answered'));
			req.on('error', () => resolve('cut'));
			req.end();
		});
		const deadline = Date.now() + 2000;
		while (!called && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
		assert.ok(called, 'the request reached health()');
		const started = performance.now();
		await server.close();
		const elapsed = performance.now() - started;
		assert.ok(elapsed < CLOSE_DEADLINE_MS, `close took ${elapsed} ms`);
		assert.equal(await pending, 'cut');
		await assert.rejects(fetch(`${server.url}/livez`));
	});
});
