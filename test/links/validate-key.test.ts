import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidKeyError } from '../../src/errors.js';
import { validateApiKey } from '../../src/links/validate-key.js';

const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';

test('a pasted key is trimmed and loses a Bearer prefix', () => {
	assert.equal(validateApiKey(`\n  ${KEY}  \t`), KEY);
	assert.equal(validateApiKey(`Bearer ${KEY}`), KEY);
	assert.equal(validateApiKey(`bearer   ${KEY}`), KEY);
});

test('keys too short or too long are refused without quoting them', () => {
	for (const raw of ['abc123', 'x'.repeat(257)]) {
		assert.throws(
			() => validateApiKey(raw),
			(error: unknown) => error instanceof InvalidKeyError && !error.message.includes(raw),
		);
	}
	assert.equal(validateApiKey('k'.repeat(16)), 'k'.repeat(16));
	assert.equal(validateApiKey('k'.repeat(256)), 'k'.repeat(256));
});

test('whitespace inside and non-ASCII characters are refused without quoting the key', () => {
	for (const raw of [`${KEY} ${KEY}`, `${KEY}\u00e9`, `${KEY}\u200b`, `${KEY}\u0000`]) {
		assert.throws(
			() => validateApiKey(raw),
			(error: unknown) => error instanceof InvalidKeyError && !error.message.includes(KEY),
		);
	}
});
