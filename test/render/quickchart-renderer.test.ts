import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { createCanvas } from '@napi-rs/canvas';
import { buildChartConfig } from '../../src/render/chart.js';
import {
	CHART_SIZE,
	CHART_UNAVAILABLE_NOTE,
	createChartRenderer,
	renderChartSafely,
} from '../../src/render/chart-output.js';
import { createQuickChartRenderer } from '../../src/render/quickchart-renderer.js';
import { readPngSize } from '../../src/render/png.js';
import type { DailySends } from '../../src/stats-api/snapshot.js';

const TINY_PNG = await createCanvas(10, 10).encode('png');

interface RecordedRequest {
	method: string;
	path: string;
	contentType: string | undefined;
	body: Record<string, unknown>;
}

/** What the fake QuickChart does with the next request. */
let mode: 'png' | 'error-500' | 'silent' | 'not-png' = 'png';
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
		if (mode === 'silent') return; // holds the request open until the test run closes every connection
		if (mode === 'error-500') {
			res.writeHead(500, { 'content-type': 'text/plain', 'x-quickchart-error': 'boom' }).end('boom');
		} else if (mode === 'not-png') {
			res.writeHead(200, { 'content-type': 'image/png' }).end('<html>definitely not a png</html>');
		} else if (req.url?.endsWith('/chart') && req.method === 'POST') {
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

function week(): DailySends[] {
	return Array.from({ length: 7 }, (_, index) => ({ date: `2026-11-${15 + index}`, sends: index * 2 }));
}

/** quickchart-js sends the config as a JavaScript literal (javascript-stringify), not JSON, so read it as QuickChart does. */
function readChartField(chart: unknown): unknown {
	assert.equal(typeof chart, 'string');
	return JSON.parse(JSON.stringify(runInNewContext(`(${chart as string})`)));
}

test('QuickChart renderer posts the v4 config, size and background to /chart and returns the PNG', async () => {
	const built = buildChartConfig(week(), { days: 7 });
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	const png = await renderer.render(built.config, CHART_SIZE, { background: built.background });

	assert.deepEqual(png, TINY_PNG);
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
});

test('a QUICKCHART_URL with a path prefix posts to the prefixed /chart', async () => {
	for (const prefix of ['/qc', '/qc/']) {
		requests = [];
		const renderer = createChartRenderer('quickchart', { quickchartUrl: `${baseUrl}${prefix}`, timeoutMs: 2000 });
		const chart = await renderChartSafely(renderer, week(), { days: 7 });
		assert.deepEqual(chart.png, TINY_PNG);
		assert.deepEqual(
			requests.map((request) => request.path),
			['/qc/chart'],
		);
	}
});

test('renderChartSafely through QuickChart names the file for the range', async () => {
	const renderer = createChartRenderer('quickchart', { quickchartUrl: baseUrl, timeoutMs: 2000 });
	const chart = await renderChartSafely(renderer, week(), { days: 30, theme: 'light' });
	assert.deepEqual(chart, {
		png: TINY_PNG,
		note: 'The stats service gives the last 7 days; the chart shows those.',
		fileName: 'stats-30d.png',
	});
	assert.equal(requests[0]?.body.backgroundColor, '#ffffff');
});

test('QuickChart answering 500 makes render reject', async () => {
	mode = 'error-500';
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	await assert.rejects(renderer.render(buildChartConfig(week(), { days: 7 }).config, CHART_SIZE), /500/u);
});

test('QuickChart never answering makes render reject within its deadline', async () => {
	mode = 'silent';
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 300 });
	const started = performance.now();
	await assert.rejects(renderer.render(buildChartConfig(week(), { days: 7 }).config, CHART_SIZE), /300 ms/u);
	const elapsed = performance.now() - started;
	assert.ok(elapsed >= 250, `rejected after ${elapsed} ms, before the deadline`);
	// A hang would never reject; 3 s only allows for a loaded machine.
	assert.ok(elapsed < 3000, `rejected after ${elapsed} ms`);
	assert.equal(requests.length, 1, 'the request did reach the server');
});

test('a 200 answer that is not a PNG makes render reject', async () => {
	mode = 'not-png';
	const renderer = createQuickChartRenderer({ quickchartUrl: baseUrl, timeoutMs: 2000 });
	await assert.rejects(renderer.render(buildChartConfig(week(), { days: 7 }).config, CHART_SIZE), /PNG/u);
});

test('an unreachable QuickChart host makes render reject', async () => {
	const closed = createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise<void>((resolve) => closed.close(() => resolve()));
	const renderer = createQuickChartRenderer({ quickchartUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
	await assert.rejects(renderer.render(buildChartConfig(week(), { days: 7 }).config, CHART_SIZE));
});

test('renderChartSafely turns each QuickChart failure into a text-only reply with a note', async () => {
	for (const failure of ['error-500', 'silent', 'not-png'] as const) {
		mode = failure;
		const renderer = createChartRenderer('quickchart', { quickchartUrl: baseUrl, timeoutMs: 300 });
		const started = performance.now();
		const chart = await renderChartSafely(renderer, week(), { days: 7 });
		assert.deepEqual(chart, { png: null, note: CHART_UNAVAILABLE_NOTE, fileName: null }, failure);
		assert.equal(CHART_UNAVAILABLE_NOTE, 'Chart unavailable right now.');
		assert.ok(performance.now() - started < 3000, `${failure} took too long`);
	}
});
