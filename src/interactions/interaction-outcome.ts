import { StorageUnavailableError } from '../links/errors.js';
import type { InteractionOutcome } from '../metrics/index.js';
import {
	FeatureUnavailableError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
} from '../stats-api/errors.js';
import { describeExpectedError } from './error-replies.js';
import { isExpiredInteraction } from './expired-interaction.js';
import { UserFacingError } from './user-facing-error.js';

/**
 * How an interaction ended, for metrics: a dependency's failure (stats endpoint, store) is `upstream_error`,
 * something the member can fix (their key, their input, a permission) is `user_error`, anything else a bug.
 */
export function interactionOutcomeOf(error: unknown): InteractionOutcome {
	if (error === null) return 'answered';
	if (isExpiredInteraction(error)) return 'expired';
	if (isDependencyFailure(error)) return 'upstream_error';
	return describeExpectedError(error) === null ? 'failed' : 'user_error';
}

function isDependencyFailure(error: unknown): boolean {
	// A failed /link keeps the endpoint's or the store's failure as the reason it gives the member.
	if (error instanceof UserFacingError) return error.key === 'errors.keyNotSaved';
	return (
		error instanceof UpstreamUnreachableError ||
		error instanceof ProtocolError ||
		error instanceof RateLimitedError ||
		error instanceof FeatureUnavailableError ||
		error instanceof StorageUnavailableError
	);
}
