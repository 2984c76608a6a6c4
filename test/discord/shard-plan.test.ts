import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { spreadShards } from '../../src/discord/shard-plan.js';
import { signatureChecker } from '../../src/discord/signature.js';

describe('shard plan', () => {
	it('spreads shards in contiguous ranges, every shard exactly once', () => {
		assert.deepEqual(spreadShards(4, 2), [
			[0, 1],
			[2, 3],
		]);
		assert.deepEqual(spreadShards(5, 2), [
			[0, 1],
			[2, 3, 4],
		]);
		assert.deepEqual(spreadShards(3, 3), [[0], [1], [2]]);
		for (const [total, processes] of [
			[16, 3],
			[7, 7],
			[100, 8],
		] as const) {
			assert.deepEqual(
				spreadShards(total, processes).flat(),
				Array.from({ length: total }, (_, id) => id),
			);
		}
		assert.throws(() => spreadShards(2, 3), /cannot spread 2 shard\(s\) over 3/);
	});
});

describe('interaction signatures', () => {
	const { publicKey, privateKey } = generateKeyPairSync('ed25519');
	const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
	const check = signatureChecker(raw);
	const body = Buffer.from('{"type":1}');
	const timestamp = '1795473322';
	const signature = sign(null, Buffer.concat([Buffer.from(timestamp), body]), privateKey).toString('hex');

	it('accepts the signature over timestamp and raw body', () => {
		assert.equal(check(signature, timestamp, body), true);
		assert.equal(check(signature.toUpperCase(), timestamp, body), true);
	});

	it('refuses an altered body or timestamp, a missing or malformed signature, another key', () => {
		assert.equal(check(signature, timestamp, Buffer.from('{"type":1} ')), false);
		assert.equal(check(signature, '1795473323', body), false);
		assert.equal(check(undefined, timestamp, body), false);
		assert.equal(check(signature, undefined, body), false);
		assert.equal(check('zz', timestamp, body), false);
		assert.equal(check(signature.slice(2), timestamp, body), false);
		const other = generateKeyPairSync('ed25519');
		const forged = sign(null, Buffer.concat([Buffer.from(timestamp), body]), other.privateKey).toString('hex');
		assert.equal(check(forged, timestamp, body), false);
	});
});
