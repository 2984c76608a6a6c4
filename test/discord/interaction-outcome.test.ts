import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiscordAPIError } from 'discord.js';
import { interactionOutcomeOf } from '../../src/discord/error-boundary.js';
import { AlreadyAcknowledgedError } from '../../src/discord/raw-interaction.js';
import { UserFacingError } from '../../src/errors.js';
import { InvalidKeyError, RelinkNeededError, StorageUnavailableError } from '../../src/errors.js';
import {
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
} from '../../src/errors.js';

function discordError(code: number): DiscordAPIError {
	return new DiscordAPIError({ code, message: 'x' }, code, 404, 'POST', '/interactions', {});
}

describe('the outcome an interaction is counted under', () => {
	const cases: [string, unknown, string][] = [
		['no failure', null, 'answered'],
		['unknown interaction', discordError(10062), 'expired'],
		['already acknowledged', discordError(40060), 'expired'],
		['a second first response', new AlreadyAcknowledgedError('x'), 'expired'],
		['unreachable endpoint', new UpstreamUnreachableError('timed out'), 'upstream_error'],
		['malformed answer', new ProtocolError('not JSON'), 'upstream_error'],
		['endpoint busy', new RateLimitedError(3), 'upstream_error'],
		['feature off', new FeatureUnavailableError(404), 'upstream_error'],
		['store outage', new StorageUnavailableError(), 'upstream_error'],
		['a link the endpoint kept from saving', new UserFacingError('errors.keyNotSaved'), 'upstream_error'],
		['rejected key', new KeyRejectedError(401), 'user_error'],
		['bad pasted key', new InvalidKeyError('length'), 'user_error'],
		['link to redo', new RelinkNeededError(), 'user_error'],
		['handler message', new UserFacingError('stats.notOwner'), 'user_error'],
		['a bug', new TypeError('x is undefined'), 'failed'],
		['a thrown string', 'oops', 'failed'],
	];
	for (const [what, error, outcome] of cases) {
		it(`${what}: ${outcome}`, () => assert.equal(interactionOutcomeOf(error), outcome));
	}
});
