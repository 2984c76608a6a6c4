import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildChartConfig } from '../../src/render/chart.js';
import { createChartRenderer } from '../../src/render/create-chart-renderer.js';
import { createPooledRenderer } from '../../src/render/pooled-renderer.js';
import { isPng } from '../../src/render/png.js';

const SIZE = { width: 800, height: 400 };

function chart(values: number[]) {
	return buildChartConfig({
		metric: 'sends',
		points: values.map((value, index) => ({ date: `2026-03-${String(index + 1).padStart(2, '0')}`, value })),
		averageSeed: [],
		locale: 'en-US',
		labels: {
			title: 'Pool test',
			subtitle: 'Sends per day',
			yAxis: 'Sends',
			series: 'Sends',
			average: '7-day average',
			partialToday: 'Today so far',
		},
	});
}

test('warmUp draws in the worker that stays, and the first chart after it is drawn by that worker', async () => {
	const renderer = createPooledRenderer({ threads: 1 });
	try {
		await renderer.warmUp!();
		const built = chart([3, 1, 4, 1, 5, 9, 2, 6]);
		const png = await renderer.render(built.config, SIZE, { background: built.background });
		assert.ok(png && isPng(png));
	} finally {
		await renderer.close();
	}
});

test("the bot's renderer warms up without counting a chart or keeping one in its memo", async () => {
	const rendered: string[] = [];
	const renderer = createChartRenderer('local', {
		quickchartUrl: 'http://127.0.0.1:9',
		threads: 1,
		onRender: (name, outcome) => rendered.push(`${name} ${outcome}`),
	});
	try {
		assert.equal(typeof renderer.warmUp, 'function');
		await renderer.warmUp!();
		assert.deepEqual(rendered, [], 'a warm-up is nobody’s chart');
		const built = chart([1, 2, 3]);
		await renderer.render(built.config, SIZE, { background: built.background });
		assert.deepEqual(rendered, ['local ok']);
	} finally {
		await renderer.close();
	}
});

test('warmUp after close, or cut short by close, resolves and starts nothing', async () => {
	const renderer = createPooledRenderer({ threads: 1 });
	const warming = renderer.warmUp!();
	await renderer.close();
	await warming;
	await renderer.warmUp!();
	await assert.rejects(renderer.render(chart([1]).config, SIZE), /closed/);
});

test('renderers with nothing to prepare have no warm-up', () => {
	assert.equal(createChartRenderer('none', { quickchartUrl: 'http://127.0.0.1:9' }).warmUp, undefined);
});

test('a worker that cannot start fails the renders and is reported, and the process lives on', async () => {
	const reported: unknown[] = [];
	const renderer = createPooledRenderer({
		threads: 1,
		workerFile: new URL('./no-such-worker.js', import.meta.url).href,
		onWorkerError: (error) => reported.push(error),
	});
	try {
		await renderer.warmUp!();
		const built = chart([1, 2, 3]);
		const render = () => renderer.render(built.config, SIZE, { background: built.background });
		// A render queued before the failure is known is rejected with the pool it waited in.
		await assert.rejects(render());
		// piscina's 'error' event, which without a listener would have ended this process.
		const deadline = Date.now() + 5000;
		while (reported.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
		assert.equal(reported.length, 1);
		assert.match(String((reported[0] as Error).message), /no-such-worker/u);
		// Until a new worker is tried, a render fails at once with the worker's own error, reported no more.
		const started = performance.now();
		await assert.rejects(render(), { code: 'ERR_MODULE_NOT_FOUND' });
		assert.ok(performance.now() - started < 50);
		assert.equal(reported.length, 1);
	} finally {
		await renderer.close();
	}
});
