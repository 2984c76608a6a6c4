import { createHash, randomBytes } from 'node:crypto';
import { MAX_API_KEY_LENGTH, MIN_API_KEY_LENGTH } from '../api-key.js';

/** Whether a bearer token could be a key at all; others are refused before hashing, so a huge header costs nothing. */
export function hasKeyLength(apiKey: string): boolean {
	return apiKey.length >= MIN_API_KEY_LENGTH && apiKey.length <= MAX_API_KEY_LENGTH;
}

const KEY_PREFIX = 'ask_';
const KEY_BODY_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new API key: `ask_` + 40 base62 characters (about 238 bits of entropy). */
export function generateApiKey(): string {
	let body = '';
	while (body.length < KEY_BODY_LENGTH) {
		for (const byte of randomBytes(64)) {
			// 248 = 4 * 62: dropping larger bytes keeps every character equally likely.
			if (byte < 248 && body.length < KEY_BODY_LENGTH) body += BASE62[byte % 62];
		}
	}
	return KEY_PREFIX + body;
}

/**
 * SHA-256 of the key. Only this is stored: a key has far too much entropy to be guessed from its
 * hash, so a leaked database reveals no key, and a fast hash keeps the request path cheap.
 */
export function hashApiKey(apiKey: string): Buffer {
	return createHash('sha256').update(apiKey, 'utf8').digest();
}
