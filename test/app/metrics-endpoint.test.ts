import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listenOn } from '../../src/listen.js';
import { checkHealth } from '../../src/metrics/index.js';
import { listenerProbe } from '../../src/app/metrics-endpoint.js';
import { REDIS_URL, redisBackend } from '../links/backends.js';
import { findSamples, parsePrometheusText, sampleValue, type Exposition } from '../metrics/prometheus-text.js';
import { startTcpProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { createAccount, linkViaModal, startHarness, type Harness } from './harness.js';

const ALICE = '320000000000000001';
const BOB = '320000000000000002';

async function scrape(h: Harness): Promise<Exposition> {
	const response = await fetch(`${h.bot.metricsUrl}/metrics`);
	assert.equal(response.status, 200);
	assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
	return parsePrometheusText(await response.text());
}

async function health(h: Harness): Promise<{ status: number; body: { status: string; reason?: string } }> {
	const response = await fetch(`${h.bot.metricsUrl}/healthz`);
	return { status: response.status, body: (await response.json()) as { status: string; reason?: string } };
}

/** The count of a histogram's observations for a command; a histogram has no series before its first. */
function observations(exposition: Exposition, name: string, command: string): number {
	const found = findSamples(exposition, `${name}_count`, { command });
	assert.ok(found.length <= 1);
	return found[0]?.value ?? 0;
}

describe('the bot’s metrics and health endpoints, scraped over HTTP while it answers', () => {
	let h: Harness;
	let aliceKey: string;

	before(async () => {
		h = await startHarness({ env: { METRICS_PORT: '0' } });
		aliceKey = createAccount(h, 'Metrics_Account');
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	it('serves on the port the system picked, on loopback', () => {
		assert.match(h.bot.metricsUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
		assert.doesNotMatch(h.bot.metricsUrl ?? '', /:0$/);
	});

	it('counts interactions by command and outcome, with acknowledgement and reply times', async () => {
		const before = await scrape(h);
		const answered = { command: 'stats', outcome: 'answered' };
		const userError = { command: 'stats', outcome: 'user_error' };
		const linked = { command: 'link', outcome: 'answered' };
		const count = (exposition: Exposition, labels: Record<string, string>) =>
			sampleValue(exposition, 'adstats_interactions_total', labels);
		const expired = { command: 'stats', outcome: 'expired' };
		assert.equal(count(before, expired), 0, 'every series exists from the start, at zero');

		const unlinked = h.sandbox.dispatchCommand({ name: 'stats', userId: BOB });
		assert.match((await unlinked.finalMessage(15_000)).content, /You have not linked an API key yet/);
		await linkViaModal(h, aliceKey, { userId: ALICE });
		const stats = h.sandbox.dispatchCommand({ name: 'stats', userId: ALICE });
		assert.equal((await stats.finalMessage(15_000)).files.length, 1);

		const after = await scrape(h);
		assert.equal(count(after, answered), count(before, answered) + 1);
		assert.equal(count(after, userError), count(before, userError) + 1);
		// The command and its modal submit, both under the command's name.
		assert.equal(count(after, linked), count(before, linked) + 2);
		const acks = (exposition: Exposition) => observations(exposition, 'adstats_interaction_ack_seconds', 'stats');
		const replies = (exposition: Exposition) => observations(exposition, 'adstats_interaction_reply_seconds', 'stats');
		assert.equal(acks(after), acks(before) + 2);
		assert.equal(replies(after), replies(before) + 2);
	});

	it('counts stats requests by status class and cache lookups, and draws a repeated chart once', async () => {
		const carol = '320000000000000003';
		await linkViaModal(h, createAccount(h, 'Chart_Account'), { userId: carol });
		const before = await scrape(h);
		const drawn = { renderer: 'local', outcome: 'ok' };
		const upstream2xx = sampleValue(before, 'adstats_upstream_requests_total', { status_class: '2xx' });
		const hits = sampleValue(before, 'adstats_snapshot_cache_lookups_total', { result: 'hit' });
		const draws = sampleValue(before, 'adstats_chart_renders_total', drawn);

		for (let i = 0; i < 2; i += 1) {
			const message = await h.sandbox
				.dispatchCommand({ name: 'stats', userId: carol, options: [{ name: 'days', type: 4, value: 7 }] })
				.finalMessage(15_000);
			assert.equal(message.files.length, 1, 'each reply carries the chart');
		}

		const after = await scrape(h);
		assert.equal(sampleValue(after, 'adstats_snapshot_cache_lookups_total', { result: 'hit' }), hits + 2);
		assert.equal(sampleValue(after, 'adstats_upstream_requests_total', { status_class: '2xx' }), upstream2xx);
		// The memo hands the second reply the first one's PNG: one draw for two identical charts.
		assert.equal(sampleValue(after, 'adstats_chart_renders_total', drawn), draws + 1);
		assert.ok(upstream2xx >= 1, 'linking asked the endpoint');
		assert.ok(sampleValue(after, 'adstats_upstream_request_seconds_count', { status_class: '2xx' }) >= 1);
	});

	it('reports the shard as ready, and no label carries an id, a key or a name', async () => {
		const exposition = await scrape(h);
		assert.equal(sampleValue(exposition, 'adstats_shard_status', { shard: '0', status: 'ready' }), 1);
		assert.ok(findSamples(exposition, 'nodejs_eventloop_lag_p99_seconds').length >= 1);
		const labelValues = exposition.samples.flatMap((sample) => Object.values(sample.labels));
		for (const secret of [ALICE, BOB, aliceKey, 'Metrics_Account', ...h.sandbox.guildIds]) {
			assert.ok(!labelValues.includes(secret), `${secret} appears as a label`);
		}
		const raw = await (await fetch(`${h.bot.metricsUrl}/metrics`)).text();
		assert.ok(!raw.includes(aliceKey) && !raw.includes(ALICE));
	});
});

describe('the bot’s readiness', () => {
	let h: Harness;

	before(async () => {
		h = await startHarness({ env: { METRICS_PORT: '0' } });
	});
	after(async () => {
		await h.close();
	});

	it('is ready while the gateway and the store answer, and 503 with the reason once the store is gone', async () => {
		const ready = await health(h);
		assert.equal(ready.status, 200);
		assert.equal(ready.body.status, 'ok');
		assert.equal((await fetch(`${h.bot.metricsUrl}/livez`)).status, 200);

		await h.bot.ctx.stores.close();
		const down = await health(h);
		assert.equal(down.status, 503);
		assert.equal(down.body.status, 'unavailable');
		assert.match(down.body.reason ?? '', /^store: /);
		assert.doesNotMatch(down.body.reason ?? '', /gateway/, 'the gateway is still fine');
		assert.equal((await fetch(`${h.bot.metricsUrl}/livez`)).status, 200, 'liveness ignores the store');
	});
});

describe('the bot’s readiness on Redis behind a network that stops answering', async () => {
	const backend = await redisBackend();
	if (backend.unavailable) {
		if (process.env.CI === 'true') it('redis is reachable in CI', () => assert.fail(backend.unavailable ?? ''));
		else it('is tested against Redis', (t) => t.skip(backend.unavailable ?? ''));
		return;
	}
	let h: Harness;
	let proxy: TcpProxy;

	before(async () => {
		proxy = await startTcpProxy(REDIS_URL);
		h = await startHarness({ env: { METRICS_PORT: '0', STORE_URL: proxy.url } });
	});
	after(async () => {
		await proxy.setMode('pass');
		await h.close();
		await proxy.close();
	});

	it('answers 503 within its deadline while the store hangs, and is ready again once it answers', async () => {
		assert.equal((await health(h)).status, 200);
		await proxy.setMode('black-hole');
		const startedAt = performance.now();
		const down = await health(h);
		assert.equal(down.status, 503);
		assert.equal(down.body.reason, 'store: no answer within 1000 ms');
		assert.ok(performance.now() - startedAt < 2500, 'a hung store never hangs the probe');

		await proxy.setMode('pass');
		const deadline = Date.now() + 20_000;
		let status = 0;
		while (status !== 200 && Date.now() < deadline) status = (await health(h)).status;
		assert.equal(status, 200, 'ready again once the store answers');
	});
});

describe('the interactions listener probe (HTTP mode’s readiness)', () => {
	it('passes while the endpoint answers, and fails once its listener is gone', async () => {
		const server = createServer((req, res) => res.writeHead(req.method === 'POST' ? 401 : 405).end());
		const url = `${await listenOn(server, 0, '127.0.0.1')}/interactions`;
		const up = await checkHealth({ interactions: listenerProbe(url) });
		assert.deepEqual(up, { ready: true, checks: [{ name: 'interactions', ok: true, detail: 'answers 405' }] });

		await new Promise((resolve) => server.close(resolve));
		const down = await checkHealth({ interactions: listenerProbe(url) });
		assert.equal(down.ready, false);
		assert.equal(down.checks[0]?.detail, 'TypeError', 'the kind of failure, never the address');
	});
});
