import {
	InvalidKeyError,
	RelinkNeededError,
	StorageUnavailableError,
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
	UserFacingError,
} from '../errors.js';
import type { FacingMessage } from '../i18n/index.js';
import { MAX_API_KEY_LENGTH, MIN_API_KEY_LENGTH } from '../api-key.js';
import type { Logger } from '../logger.js';
import type { RepliableInteraction } from './interaction.js';
import { DiscordAPIError } from 'discord.js';
import { AlreadyAcknowledgedError } from './raw-interaction.js';
import type { InteractionOutcome } from '../metrics/index.js';

// The router's error boundary: which failures a member is told about (and in which words), how a reply gets
// through whatever state the interaction is in, and how each ending is counted.

/** Past this a wait is not worth a number: "in a little while" reads better than "in 1e+23 s". */
const MAX_STATED_WAIT_SECONDS = 3600;

export function rateLimitedMessage(retryAfterSeconds: number | null): FacingMessage {
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
 * A failed `/link` or `/server-key set`, rewritten so the member learns the key was not kept and
 * which command to run again. Bugs pass through unchanged, to the router's incident path.
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

/** Answers privately whatever state the interaction is in: reply first, or edit what was deferred. */
export async function answerPrivately(interaction: RepliableInteraction, content: string, log: Logger): Promise<void> {
	try {
		const state = interaction.acknowledgement;
		if (state === 'update' || state === 'defer-update') {
			// Acknowledged as an update of the message holding the button: keep that message, add a private note.
			await interaction.followUp({ content }, 'private');
		} else if (state !== null) {
			await interaction.editReply({ content, embeds: [], components: [], files: [] });
		} else {
			await interaction.reply({ content }, 'private');
		}
	} catch (error) {
		if (isExpiredInteraction(error)) logExpired(log, interaction.createdAt, error);
		else log.error({ err: error }, 'could not send the error reply');
	}
}

/** Discord errors that mean the interaction can no longer be answered: logged, never fatal. */
const EXPIRED_INTERACTION_CODES = new Set([10062, 40060, 50027, 10015]);

export function isExpiredInteraction(error: unknown): boolean {
	if (error instanceof AlreadyAcknowledgedError) return true;
	return error instanceof DiscordAPIError && EXPIRED_INTERACTION_CODES.has(Number(error.code));
}

export function logExpired(log: Logger, createdAt: number, error: unknown): void {
	log.warn(
		{ discordCode: error instanceof DiscordAPIError ? error.code : 'local', latencyMs: Date.now() - createdAt },
		'interaction could not be answered any more',
	);
}

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
