import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHostLimit } from '../../src/webhooks/host-limit.js';

test('at most 10 attempts to one host in any second; a turn beyond the wait allowed is refused at once', async () => {
	const limit = createHostLimit(10);
	const sent: number[] = [];
	const pending = Array.from({ length: 15 }, async () => {
		const ok = await limit.acquire('Hooks.Example:443', 2_000);
		if (ok) sent.push(Date.now());
		return ok;
	});
	// The 15 turns reach ~1.6 s ahead: one more with 100 ms to spare is put off, not waited for; another host is not.
	assert.equal(await limit.acquire('hooks.example:443', 100), false);
	assert.equal(await limit.acquire('other.example', 0), true);
	const acquired = await Promise.all(pending);
	assert.equal(acquired.filter(Boolean).length, 15, 'turns every 110 ms: 2 s of waiting holds all 15');
	sent.sort((a, b) => a - b);
	for (let index = 10; index < sent.length; index += 1) {
		assert.ok(sent[index]! - sent[index - 10]! >= 1000, `11 sends within ${sent[index]! - sent[index - 10]!} ms`);
	}
});
