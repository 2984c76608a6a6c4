import { MAX_API_KEY_LENGTH, MIN_API_KEY_LENGTH } from '../api-key.js';
import { InvalidKeyError } from '../errors.js';

/** Printable ASCII without space: what an API key can be, and what survives a paste. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * The key as it will be sent: trimmed, with a pasted `Bearer ` prefix removed.
 * Throws InvalidKeyError, which never quotes the input.
 */
export function validateApiKey(raw: string): string {
	const key = raw.trim().replace(/^bearer\s+/i, '');
	if (key.length < MIN_API_KEY_LENGTH || key.length > MAX_API_KEY_LENGTH) {
		throw new InvalidKeyError('length');
	}
	if (!KEY_CHARACTERS.test(key)) {
		throw new InvalidKeyError('characters');
	}
	return key;
}
