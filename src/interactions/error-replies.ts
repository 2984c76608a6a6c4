import { InvalidKeyError, RelinkNeededError, StorageUnavailableError } from '../links/errors.js';
import {
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
} from '../stats-api/errors.js';
import { UserFacingError } from './user-facing-error.js';

export const MESSAGES = {
	keyRejected: 'The stats service rejected your API key. Run `/link` again with a current key.',
	linkKeyRejected: 'The stats service rejected that key, so nothing was saved. Check it and run `/link` again.',
	serverLinkKeyRejected:
		'The stats service rejected that key, so nothing was saved. Check it and run `/server-key set` again.',
	serverKeyRejected:
		"The stats service rejected this server's API key. A server admin can link a new one with `/server-key set`.",
	featureUnavailable:
		'Statistics come with the V2 update of the advertising service and are not available yet. Linked keys are kept.',
	unreachable: 'The stats service is unreachable right now. Try again in a minute.',
	protocol:
		"The stats service answered something unexpected. If it keeps happening, let the bot's host know: the service may have changed.",
	relinkNeeded: 'Your stored key can no longer be read. Run `/link` to link it again.',
	serverRelinkNeeded: "This server's stored key can no longer be read. A server admin can run `/server-key set`.",
	storage: 'The bot cannot reach its storage right now; nothing was saved or changed. Try again shortly.',
	shuttingDown: 'The bot is restarting. Try again in a few seconds.',
	incident: (incidentId: string) =>
		`Sorry, something went wrong on our side. If it keeps happening, tell the server's admins or the bot's host and quote incident \`${incidentId}\`.`,
} as const;

export function rateLimitedMessage(retryAfterSeconds: number | null): string {
	if (retryAfterSeconds === null) return 'The stats service is busy. Try again in a little while.';
	return `The stats service is busy. Try again in ${Math.max(1, Math.ceil(retryAfterSeconds))} s.`;
}

export function cooldownMessage(seconds: number): string {
	return `Slow down a little: try again in ${seconds} s.`;
}

/**
 * A failed `/link` or `/server-key set`, rewritten so the member learns the key was not kept and
 * which command to run again. Bugs pass through unchanged, to the router's incident path.
 */
export function linkFailure(error: unknown, command: 'link' | 'server-key set'): unknown {
	if (error instanceof KeyRejectedError) {
		return new UserFacingError(command === 'link' ? MESSAGES.linkKeyRejected : MESSAGES.serverLinkKeyRejected);
	}
	if (error instanceof InvalidKeyError || error instanceof UserFacingError) return error;
	const reason = describeExpectedError(error);
	return reason === null ? error : new UserFacingError(`${reason}\nThe key was not saved; run \`/${command}\` again.`);
}

/** The member-facing text for an expected failure, or null for a bug. */
export function describeExpectedError(error: unknown): string | null {
	if (error instanceof UserFacingError || error instanceof InvalidKeyError) return error.message;
	if (error instanceof KeyRejectedError) return MESSAGES.keyRejected;
	if (error instanceof FeatureUnavailableError) return MESSAGES.featureUnavailable;
	if (error instanceof RateLimitedError) return rateLimitedMessage(error.retryAfterSeconds);
	if (error instanceof UpstreamUnreachableError) return MESSAGES.unreachable;
	if (error instanceof ProtocolError) return MESSAGES.protocol;
	if (error instanceof RelinkNeededError) return MESSAGES.relinkNeeded;
	if (error instanceof StorageUnavailableError) return MESSAGES.storage;
	return null;
}
