import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChartConfiguration } from 'chart.js';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import { memoizeRenderer } from '../../src/render/memoized-renderer.js';

const SIZE = { width: 800, height: 400 };

function config(sends: number[]): ChartConfiguration {
	return { type: 'bar', data: { labels: sends.map(String), datasets: [{ label: 'Sends', data: sends }] } };
}

/** A renderer that counts its calls and answers with bytes naming the call. */
function countingRenderer(answer: (call: number) => Buffer | null | Error = (call) => Buffer.from(`png ${call}`)) {
	let calls = 0;
	const renderer: ChartRenderer = {
		name: 'local',
		async render() {
			calls += 1;
			const result = answer(calls);
			if (result instanceof Error) throw result;
			return result;
		},
		close: async () => {},
	};
	return { renderer, calls: () => calls };
}

test('the memo draws a repeated chart once and hands back the same PNG', async () => {
	const inner = countingRenderer();
	const memo = memoizeRenderer(inner.renderer);
	const first = await memo.render(config([1, 2, 3]), SIZE, { background: '#000' });
	const second = await memo.render(config([1, 2, 3]), SIZE, { background: '#000' });
	assert.equal(inner.calls(), 1);
	assert.deepEqual(second, first);
	assert.equal(memo.name, 'local');
});

test('the memo draws again when the data, the size or the background differ', async () => {
	const inner = countingRenderer();
	const memo = memoizeRenderer(inner.renderer);
	await memo.render(config([1, 2, 3]), SIZE, { background: '#000' });
	await memo.render(config([1, 2, 4]), SIZE, { background: '#000' });
	await memo.render(config([1, 2, 3]), { width: 400, height: 200 }, { background: '#000' });
	await memo.render(config([1, 2, 3]), SIZE, { background: '#fff' });
	await memo.render(config([1, 2, 3]), SIZE);
	assert.equal(inner.calls(), 5);
});

test('the memo remembers no failure: a rejected render is tried again', async () => {
	const inner = countingRenderer((call) => (call === 1 ? new Error('QuickChart down') : Buffer.from('png')));
	const memo = memoizeRenderer(inner.renderer);
	await assert.rejects(memo.render(config([1]), SIZE), /QuickChart down/u);
	assert.deepEqual(await memo.render(config([1]), SIZE), Buffer.from('png'));
	assert.equal(inner.calls(), 2);
});

test('the memo keeps only the most recently used charts', async () => {
	const inner = countingRenderer();
	const memo = memoizeRenderer(inner.renderer, 2);
	await memo.render(config([1]), SIZE); // call 1
	await memo.render(config([2]), SIZE); // call 2
	await memo.render(config([1]), SIZE); // hit: [1] becomes the most recent
	await memo.render(config([3]), SIZE); // call 3 evicts [2]
	assert.equal(inner.calls(), 3);
	assert.deepEqual(await memo.render(config([1]), SIZE), Buffer.from('png 1'), '[1] survived');
	await memo.render(config([2]), SIZE);
	assert.equal(inner.calls(), 4, '[2] was evicted and drawn again');
});

test('five identical renders in flight make one render, and all five get its PNG', async () => {
	let release: () => void = () => {};
	const gate = new Promise<void>((resolve) => (release = resolve));
	let calls = 0;
	const memo = memoizeRenderer({
		name: 'local',
		async render() {
			const call = (calls += 1);
			await gate;
			return Buffer.from(`png ${call}`);
		},
		close: async () => {},
	});
	const renders = Array.from({ length: 5 }, () => memo.render(config([1, 2, 3]), SIZE, { background: '#000' }));
	const other = memo.render(config([9]), SIZE, { background: '#000' });
	release();
	const pngs = await Promise.all(renders);
	await other;
	assert.equal(calls, 2, 'one render for the five identical ones, one for the different one');
	for (const png of pngs) assert.deepEqual(png, Buffer.from('png 1'));
});

test('a failed render in flight fails every joined caller, and the next call draws again', async () => {
	let release: () => void = () => {};
	const gate = new Promise<void>((resolve) => (release = resolve));
	let calls = 0;
	const memo = memoizeRenderer({
		name: 'quickchart',
		async render() {
			calls += 1;
			if (calls === 1) {
				await gate;
				throw new Error('QuickChart down');
			}
			return Buffer.from('png');
		},
		close: async () => {},
	});
	const renders = Array.from({ length: 3 }, () => memo.render(config([1]), SIZE));
	release();
	for (const render of renders) await assert.rejects(render, /QuickChart down/u);
	assert.deepEqual(await memo.render(config([1]), SIZE), Buffer.from('png'));
	assert.equal(calls, 2);
});

test('closing the memo closes the renderer behind it', async () => {
	let closed = 0;
	const memo = memoizeRenderer({ name: 'local', render: async () => null, close: async () => void (closed += 1) });
	await memo.close();
	assert.equal(closed, 1);
});

test('the same config object asked again reuses its key, and a different size or background still draws anew', async () => {
	const inner = countingRenderer();
	const memo = memoizeRenderer(inner.renderer);
	const shared = config([5, 6, 7]);
	await memo.render(shared, SIZE, { background: '#000' });
	await memo.render(shared, SIZE, { background: '#000' });
	assert.equal(inner.calls(), 1);
	await memo.render(shared, SIZE, { background: '#fff' });
	await memo.render(shared, { width: 400, height: 200 }, { background: '#fff' });
	assert.equal(inner.calls(), 3);
	// An equal config built apart from it shares the PNG: the key is the content, the object only spares its work.
	await memo.render(config([5, 6, 7]), SIZE, { background: '#000' });
	assert.equal(inner.calls(), 3);
});
