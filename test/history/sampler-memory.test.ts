import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureSamplerMemory } from './sampler-memory.js';

test('the sampler heap stays flat over a day with 10,000 linked accounts', async () => {
	const figures = await measureSamplerMemory(10_000);
	assert.equal(figures.sampled, 10_000);
	const [first = 0, ...rest] = figures.heapMiB;
	// Holding every account (256-character keys) would take over 5 MiB.
	for (const mib of rest) assert.ok(mib - first < 2, `heap grew from ${first.toFixed(1)} to ${mib.toFixed(1)} MiB`);
});
