// The URL and the signing secret are sealed like an API key (AES-256-GCM under LINK_SECRET), each bound to its
// record's key and field, so a sealed value copied into another record does not open.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { openApiKey, sealApiKey } from '../links/crypto.js';
import { createKeyring, type LinkKeyring } from '../links/link-record.js';
import { RelinkNeededError } from '../errors.js';

const keyrings = new WeakMap<Buffer, { previous: Buffer | null; keyring: LinkKeyring }>();

/** The keyring of the config's secrets, derived once per pair (HKDF per delivery would be waste). */
function keyringOf(config: Pick<Config, 'linkSecret' | 'linkSecretPrevious'>): LinkKeyring {
	const kept = keyrings.get(config.linkSecret);
	if (kept && kept.previous === config.linkSecretPrevious) return kept.keyring;
	const keyring = createKeyring(config.linkSecret, config.linkSecretPrevious);
	keyrings.set(config.linkSecret, { previous: config.linkSecretPrevious, keyring });
	return keyring;
}

type Field = 'url' | 'secret';
const aadOf = (storeKey: string, field: Field) => `${storeKey}#${field}`;

export interface Sealer {
	/** The id of the secret sealing now (stored as `kid`). */
	kid: string;
	seal(value: string, storeKey: string, field: Field): string;
	/** Throws RelinkNeededError when no configured secret opens it. */
	open(sealed: string, kid: string, storeKey: string, field: Field): string;
}

export function sealerOf(config: Pick<Config, 'linkSecret' | 'linkSecretPrevious'>): Sealer {
	const keyring = keyringOf(config);
	return {
		kid: keyring.current.id,
		seal: (value, storeKey, field) => sealApiKey(value, keyring.current, aadOf(storeKey, field)),
		open: (sealed, kid, storeKey, field) => {
			const key = [keyring.current, keyring.previous].find((candidate) => candidate?.id === kid);
			if (!key) throw new RelinkNeededError();
			return openApiKey(sealed, key, aadOf(storeKey, field));
		},
	};
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`;
}
