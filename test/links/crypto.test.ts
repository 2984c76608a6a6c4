import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveLinkKey, openApiKey, sealApiKey } from '../../src/links/crypto.js';
import { RelinkNeededError } from '../../src/errors.js';

const linkKey = deriveLinkKey(Buffer.alloc(32, 3));

test('sealing the same key twice gives different ciphertexts (fresh nonce)', () => {
	const first = sealApiKey('sk_live_Q7fJx2LmP9wRt4ZkV8nB', linkKey, 'user:1');
	const second = sealApiKey('sk_live_Q7fJx2LmP9wRt4ZkV8nB', linkKey, 'user:1');
	assert.notEqual(first, second);
	assert.equal(openApiKey(first, linkKey, 'user:1'), 'sk_live_Q7fJx2LmP9wRt4ZkV8nB');
});

test('the key id is 8 hex characters and differs per secret', () => {
	assert.match(linkKey.id, /^[0-9a-f]{8}$/);
	assert.notEqual(deriveLinkKey(Buffer.alloc(32, 4)).id, linkKey.id);
});

test('a sealed key opens only under its own record key', () => {
	const sealed = sealApiKey('sk_live_Q7fJx2LmP9wRt4ZkV8nB', linkKey, 'user:1');
	assert.throws(() => openApiKey(sealed, linkKey, 'user:2'), RelinkNeededError);
	assert.throws(() => openApiKey(sealed, linkKey, 'guild:1'), RelinkNeededError);
});

test('truncated or empty values need a relink', () => {
	assert.throws(() => openApiKey('', linkKey, 'user:1'), RelinkNeededError);
	assert.throws(() => openApiKey('AAAA', linkKey, 'user:1'), RelinkNeededError);
});
