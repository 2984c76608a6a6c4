import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { RelinkNeededError } from '../errors.js';

const HKDF_LABEL = 'link-encryption v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** An AES-256 key derived from LINK_SECRET, and the id stored beside every record it seals. */
export interface LinkKey {
	/** First 8 hex characters of SHA-256 of the derived key: names the key, reveals nothing of it. */
	id: string;
	key: Buffer;
}

/** Derives the record key from a 32-byte LINK_SECRET (HKDF-SHA256 with a purpose label). */
export function deriveLinkKey(secret: Buffer): LinkKey {
	if (secret.length !== 32) throw new Error('LINK_SECRET must be 32 bytes');
	const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), HKDF_LABEL, 32));
	return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

/**
 * Seals an API key with AES-256-GCM. The result is base64 of
 *   nonce (12 bytes, fresh per call) | ciphertext (UTF-8 key length) | GCM tag (16 bytes).
 * `aad` is the record's store key (e.g. `user:123`), so a sealed value moved to another record fails to open.
 */
export function sealApiKey(apiKey: string, linkKey: LinkKey, aad: string): string {
	const nonce = randomBytes(NONCE_BYTES);
	const cipher = createCipheriv('aes-256-gcm', linkKey.key, nonce);
	cipher.setAAD(Buffer.from(aad, 'utf8'));
	const ciphertext = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
	return Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64');
}

/** Opens what sealApiKey made; anything that fails authentication throws RelinkNeededError. */
export function openApiKey(sealed: string, linkKey: LinkKey, aad: string): string {
	const bytes = Buffer.from(sealed, 'base64');
	if (bytes.length <= NONCE_BYTES + TAG_BYTES) throw new RelinkNeededError();
	const nonce = bytes.subarray(0, NONCE_BYTES);
	const tag = bytes.subarray(bytes.length - TAG_BYTES);
	const ciphertext = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES);
	try {
		const decipher = createDecipheriv('aes-256-gcm', linkKey.key, nonce, { authTagLength: TAG_BYTES });
		decipher.setAAD(Buffer.from(aad, 'utf8'));
		decipher.setAuthTag(tag);
		return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
	} catch {
		throw new RelinkNeededError();
	}
}
