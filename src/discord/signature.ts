import { createPublicKey, verify, type KeyObject } from 'node:crypto';

// DER prefix that turns the raw 32-byte Ed25519 key Discord shows into SubjectPublicKeyInfo for node:crypto.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_HEX = /^[0-9a-f]{128}$/i;

export type SignatureCheck = (signature: string | undefined, timestamp: string | undefined, body: Buffer) => boolean;

/**
 * Discord signs `timestamp + raw body`: the check runs on the bytes as received, before any JSON
 * parsing, since a re-serialised body no longer matches. The key object is built once.
 */
export function signatureChecker(publicKey: Buffer): SignatureCheck {
	const key: KeyObject = createPublicKey({
		key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
		format: 'der',
		type: 'spki',
	});
	return (signature, timestamp, body) => {
		if (!signature || !timestamp || !SIGNATURE_HEX.test(signature)) return false;
		try {
			return verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signature, 'hex'));
		} catch {
			return false;
		}
	};
}
