/** A pasted key that cannot be a key; it never quotes the key. */
export class InvalidKeyError extends Error {
	override name = 'InvalidKeyError';
	constructor(readonly reason: 'length' | 'characters') {
		super(reason === 'length' ? 'the key has an impossible length' : 'the key has characters a key cannot have');
	}
}

/** A stored record that no configured secret decrypts: the member must link again. */
export class RelinkNeededError extends Error {
	override name = 'RelinkNeededError';
	constructor() {
		super('the stored key can no longer be decrypted; link it again');
	}
}

/** The Keyv backend failed; never to be read as "not linked". */
export class StorageUnavailableError extends Error {
	override name = 'StorageUnavailableError';
	constructor(options?: { cause?: unknown }) {
		super('the link storage is unavailable', options);
	}
}
