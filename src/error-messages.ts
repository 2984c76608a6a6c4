import { MAX_API_KEY_LENGTH, MIN_API_KEY_LENGTH } from './api-key.js';
import {
	FeatureUnavailableError,
	InvalidKeyError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	RelinkNeededError,
	StorageUnavailableError,
	UpstreamUnreachableError,
	UserFacingError,
} from './errors.js';
import type { FacingMessage } from './i18n/render-message.js';

// Which failures a member is told about, and the catalogue key of each: both front ends write these words.

/** Past this a wait is not worth a number: "in a little while" reads better than "in 1e+23 s". */
const MAX_STATED_WAIT_SECONDS = 3600;

function rateLimitedMessage(retryAfterSeconds: number | null): FacingMessage {
	if (
		retryAfterSeconds === null ||
		!Number.isFinite(retryAfterSeconds) ||
		retryAfterSeconds > MAX_STATED_WAIT_SECONDS
	) {
		return { key: 'errors.rateLimitedUnknown' };
	}
	return { key: 'errors.rateLimited', vars: { seconds: Math.max(1, Math.ceil(retryAfterSeconds)) } };
}

/**
 * A failed `/link` or `/server-key set` (on Discord or the dashboard), rewritten so the member learns the key was
 * not kept and which command to run again. Bugs pass through unchanged, to the front end's incident path.
 */
export function linkFailure(error: unknown, command: 'link' | 'server-key set'): unknown {
	if (error instanceof KeyRejectedError) {
		return new UserFacingError(command === 'link' ? 'errors.linkKeyRejected' : 'errors.serverLinkKeyRejected');
	}
	if (error instanceof InvalidKeyError || error instanceof UserFacingError) return error;
	const reason = describeExpectedError(error);
	if (reason === null) return error;
	return new UserFacingError('errors.keyNotSaved', { reason, command });
}

/** The member-facing text for an expected failure, or null for a bug. */
export function describeExpectedError(error: unknown): FacingMessage | null {
	if (error instanceof UserFacingError) return { key: error.key, vars: error.vars, more: error.more };
	if (error instanceof InvalidKeyError) {
		return error.reason === 'length'
			? { key: 'errors.invalidKeyLength', vars: { min: MIN_API_KEY_LENGTH, max: MAX_API_KEY_LENGTH } }
			: { key: 'errors.invalidKeyCharacters' };
	}
	if (error instanceof KeyRejectedError) return { key: 'errors.keyRejected' };
	if (error instanceof FeatureUnavailableError) return { key: 'errors.featureUnavailable' };
	if (error instanceof RateLimitedError) return rateLimitedMessage(error.retryAfterSeconds);
	if (error instanceof UpstreamUnreachableError) return { key: 'errors.unreachable' };
	if (error instanceof ProtocolError) return { key: 'errors.protocol' };
	if (error instanceof RelinkNeededError) return { key: 'errors.relinkNeeded' };
	if (error instanceof StorageUnavailableError) return { key: 'errors.storage' };
	return null;
}
