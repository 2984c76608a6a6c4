import type { MessageKey } from '../i18n/index.js';

/** A text before translation: a catalogue key and the values it takes. */
export interface FacingMessage {
	key: MessageKey;
	vars?: Record<string, unknown>;
	/** Further sentences, each on a line of its own. */
	more?: FacingMessage[];
}

/**
 * An expected failure to tell the member: a catalogue key and its values, translated when the
 * reply is written, into the language of whoever reads it.
 */
export class UserFacingError extends Error {
	override name = 'UserFacingError';
	constructor(
		readonly key: MessageKey,
		readonly vars: Record<string, unknown> = {},
		readonly more: FacingMessage[] = [],
	) {
		super(key);
	}
}
