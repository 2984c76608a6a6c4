import { DiscordAPIError } from '@discordjs/rest';
import type { Logger } from '../logger.js';
import { AlreadyAcknowledgedError } from './raw-interaction.js';

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
