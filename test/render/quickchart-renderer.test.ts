import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { createCanvas } from '@napi-rs/canvas';
import { buildChartConfig, englishChartLabels } from '../../src/render/chart.js';
import type { ChartInput } from '../../src/render/chart.js';
import { createChartRenderer } from '../../src/render/create-chart-renderer.js';
import { CHART_SIZE, renderChartSafely, type ChartLogger } from '../../src/render/draw-chart.js';
import { createQuickChartRenderer } from '../../src/render/quickchart-renderer.js';
import { readPngSize } from '../../src/render/png.js';

const TINY_PNG = await createCanvas(10, 10).encode('png');

interface RecordedRequest {
	method: string;
	path: string;
	contentType: string | undefined;
	body: Record<string, unknown>;
}

/** What the fake QuickChart does with the next request. */
let mode: 'png' | 'error-500' | 'silent' | 'stall-mid-body' | 'trickle' | 'not-png' = 'png';
let requests: RecordedRequest[] = [];

const quickchart = createServer((req, res) => {
	const chunks: Buffer[] = [];
	req.on('data', (chunk: Buffer) => chunks.push(chunk));
	req.on('end', () => {
		const text = Buffer.concat(chunks).toString('utf8');
		requests.push({
			method: req.method ?? '',
			path: req.url ?? '',
			contentType: req.headers['content-type'],
			body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
		});
		if (mode === 'silent') return; // holds the request open until the client gives up
		if (mode === 'stall-mid-body') {
			// Headers and the first bytes of a PNG, then nothing: the download must be cancelled, not waited out.
			res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(TINY_PNG.length * 10) });
			res.write(TINY_PNG.subarray(0, 20));
			return;
		}
		if (mode === 'trickle') {
			// A byte every 50 ms never trips an idle timeout: only a deadline on the whole request ends it.
			res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(TINY_PNG.length * 100) });
			let sent = 0;
			const timer = setInterval(
				() => res.write(TINY_PNG.subarray(sent % TINY_PNG.length, (sent++ % TINY_PNG.length) + 1)),
				50,
			);
			res.on('close', () => clearInterval(timer));
			return;
		}
		if (mode === 'error-500') {
			res.writeHead(500, { 'content-type': 'text/plain', 'x-quickchart-error': 'boom' }).end('boom');
		} else if (mode === 'not-png') {
			res.writeHead(200, { 'content-type': 'image/png' }).end('<html>definitely not a png</html>');
		} else if ((req.url === '/chart' || req.url === '/qc/chart') && req.method === 'POST') {
			res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
		} else {
			res.writeHead(404).end();
		}
	});
});

let baseUrl = '';

before(async () => {
	await new Promise<void>((resolve) => quickchart.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(quickchart.address() as AddressInfo).port}`;
});

beforeEach(() => {
	mode = 'png';
	requests = [];
});

after(async () => {
	quickchart.closeAllConnections();
	await new Promise<void>((resolve) => quickchart.close(() => resolve()));
});

function week(): ChartInput {
	const points = Array.from({ length: 7 }, (_, index) => ({ date: `2026-11-${17 + index}`, value: index * 2 }));
	return {
		metric: 'sends',
		points,
		averageSeed: [1, 2, 3, 4, 5, 6],
		locale: 'en-US',
		labels: englishChartLabels({ metric: 'sends', accountName: 'Acme', from: '2026-11-17', to: '2026-11-23' }),
	};
}

function capturingLogger(): ChartLogger & { lines: { fields: object; message: string }[] } {
	const lines: { fields: object; message: string }[] = [];
	return { lines, warn: (fields, message) => lines.push({ fields, message }) };
}

async function openConnections(): Promise<number> {
	return new Promise((resolve, reject) =>
		quickchart.getConnections((error, count) => (error ? reject(error) : resolve(count))),
	);
}

/** Polls until no client socket is open on the fake server, or fails at the deadline. */
async function waitForNoConnections(deadlineMs: number): Promise<void> {
	const deadline = performance.now() + deadlineMs;
	while ((await openConnections()) > 0) {
		if (performance.now() > deadline) assert.fail(`${await openConnections()} sockets still open`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** quickchart-js writes the config as a JavaScript literal (javascript-stringify), so read it as QuickChart does. */
function readChartField(chart: unknown): unknown {
	assert.equal(typeof chart, 'string');
	return JSON.parse(JSON.stringify(runInNewContext(`(${chart as string})`)));
}

test('QuickChart renderer posts the v4 config, size and background to /chart and returns the PNG unchanged', async () => {
	const built = buildChartConfig(week());
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	try {
		const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });
		assert.deepEqual(png, TINY_PNG, 'byte for byte what QuickChart sent');
		assert.deepEqual(readPngSize(png ?? Buffer.alloc(0)), { width: 10, height: 10 });
		assert.equal(requests.length, 1);
		const [request] = requests;
		assert.equal(request?.method, 'POST');
		assert.equal(request?.path, '/chart');
		assert.equal(request?.contentType, 'application/json');
		assert.equal(request?.body.version, '4');
		assert.equal(request?.body.width, 800);
		assert.equal(request?.body.height, 400);
		assert.equal(request?.body.format, 'png');
		assert.equal(request?.body.devicePixelRatio, 1);
		assert.equal(request?.body.backgroundColor, built.background);
		assert.deepEqual(readChartField(request?.body.chart), JSON.parse(JSON.stringify(built.config)));
		assert.equal(request?.body.key, undefined, 'no API key is sent or invented');
	} finally {
		await renderer.close();
	}
});

test('a QUICKCHART_URL with a path prefix posts to the prefixed /chart', async () => {
	for (const prefix of ['/qc', '/qc/']) {
		requests = [];
		const renderer = createChartRenderer('quickchart', { quickchartUrl: `${baseUrl}${prefix}`, timeoutMs: 2000 });
		const chart = await renderChartSafely(renderer, week(), { log: capturingLogger() });
		await renderer.close();
		assert.deepEqual(chart.png, TINY_PNG);
		assert.deepEqual(
			requests.map((request) => request.path),
			['/qc/chart'],
		);
	}
});

test('renderChartSafely through QuickChart returns the PNG and sends the light background', async () => {
	const renderer = createChartRenderer('quickchart', { quickchartUrl: baseUrl, timeoutMs: 2000 });
	const log = capturingLogger();
	const chart = await renderChartSafely(renderer, week(), { log, theme: 'light' });
	await renderer.close();
	assert.deepEqual(chart, { png: TINY_PNG, problem: null });
	assert.equal(requests[0]?.body.backgroundColor, '#ffffff');
	assert.deepEqual(log.lines, [], 'nothing logged on success');
});

test('QuickChart answering 500 makes render reject with the status and its error header', async () => {
	mode = 'error-500';
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	await assert.rejects(renderer.render(buildChartConfig(week()).config, CHART_SIZE), /500: boom/u);
	await renderer.close();
});

const STALLS = {
	silent: 'never answering',
	'stall-mid-body': 'stalling mid-body',
	trickle: 'trickling a byte at a time',
};
for (const stall of ['silent', 'stall-mid-body', 'trickle'] as const) {
	test(`QuickChart ${STALLS[stall]}: rejected at the deadline, no socket left open`, { timeout: 10_000 }, async () => {
		mode = stall;
		const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 300 });
		const started = performance.now();
		await assert.rejects(renderer.render(buildChartConfig(week()).config, CHART_SIZE), /within 300 ms/u);
		const elapsed = performance.now() - started;
		assert.ok(elapsed >= 250, `rejected after ${elapsed} ms, before the deadline`);
		// A hang would never reject; 3 s only allows for a loaded machine.
		assert.ok(elapsed < 3000, `rejected after ${elapsed} ms`);
		assert.equal(requests.length, 1, 'the request did reach the server');
		// The abort destroys the socket; before this fix the download went on after the deadline.
		await waitForNoConnections(2000);
		await renderer.close();
	});
}

test('a 200 answer that is not a PNG makes render reject', async () => {
	mode = 'not-png';
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	await assert.rejects(renderer.render(buildChartConfig(week()).config, CHART_SIZE), /PNG/u);
	await renderer.close();
});

test('a wrong QUICKCHART_URL logs one line with the renderer and the reason, and the reply keeps its text', async () => {
	const closed = createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise<void>((resolve) => closed.close(() => resolve()));
	for (const [url, reason] of [
		[`http://127.0.0.1:${port}`, /ECONNREFUSED/u],
		[`${baseUrl}/not-quickchart`, /404/u],
	] as const) {
		const renderer = createChartRenderer('quickchart', { quickchartUrl: url, timeoutMs: 2000 });
		const log = capturingLogger();
		const chart = await renderChartSafely(renderer, week(), { log });
		await renderer.close();
		assert.deepEqual(chart, { png: null, problem: 'failed' });
		assert.equal(log.lines.length, 1, url);
		const [line] = log.lines;
		assert.equal(line?.message, 'chart render failed');
		assert.equal((line?.fields as { renderer?: string }).renderer, 'quickchart');
		assert.match((line?.fields as { reason?: string }).reason ?? '', reason);
	}
});

test(
	'renderChartSafely turns each QuickChart failure into a failed outcome and one log line',
	{ timeout: 15_000 },
	async () => {
		for (const failure of ['error-500', 'silent', 'stall-mid-body', 'trickle', 'not-png'] as const) {
			mode = failure;
			const renderer = createChartRenderer('quickchart', { quickchartUrl: baseUrl, timeoutMs: 300 });
			const log = capturingLogger();
			const started = performance.now();
			const chart = await renderChartSafely(renderer, week(), { log });
			await renderer.close();
			assert.deepEqual(chart, { png: null, problem: 'failed' }, failure);
			assert.equal(log.lines.length, 1, failure);
			assert.ok(performance.now() - started < 3000, `${failure} took too long`);
		}
	},
);

test('a closed QuickChart renderer rejects instead of opening a connection', async () => {
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	await renderer.close();
	await assert.rejects(renderer.render(buildChartConfig(week()).config, CHART_SIZE));
	assert.equal(requests.length, 0);
});
