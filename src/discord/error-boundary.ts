import {
	FeatureUnavailableError,
	ProtocolError,
	RateLimitedError,
	StorageUnavailableError,
	UpstreamUnreachableError,
	UserFacingError,
} from '../errors.js';
import { describeExpectedError } from '../error-messages.js';
import type { Logger } from '../logger.js';
import type { RepliableInteraction } from './interaction.js';
import { DiscordAPIError } from 'discord.js';
import { AlreadyAcknowledgedError } from './raw-interaction.js';
import type { InteractionOutcome } from '../metrics/index.js';

// The router's error boundary: how a reply gets through whatever state the interaction is in, and how each ending
// is counted. Which failures a member is told about, and in which words, is src/error-messages.ts.

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
