import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from '../../src/service/index.js';

test('a key may burst N requests, then waits 60/N seconds per further request', () => {
	let nowMs = 0;
	const limiter = new RateLimiter(6, () => nowMs);
	for (let i = 0; i < 6; i += 1) assert.deepEqual(limiter.take('a'), { allowed: true });
	assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterSeconds: 10 });
	nowMs += 4_000;
	assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterSeconds: 6 });
	nowMs += 6_000;
	assert.deepEqual(limiter.take('a'), { allowed: true });
});

test('keys are limited separately', () => {
	const limiter = new RateLimiter(1, () => 0);
	assert.equal(limiter.take('a').allowed, true);
	assert.equal(limiter.take('a').allowed, false);
	assert.equal(limiter.take('b').allowed, true);
});

test('a limit of 0 turns limiting off', () => {
	const limiter = new RateLimiter(0, () => 0);
	for (let i = 0; i < 1000; i += 1) assert.equal(limiter.take('a').allowed, true);
});
