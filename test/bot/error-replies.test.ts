import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeExpectedError, MESSAGES } from '../../src/interactions/error-replies.js';
import { UserFacingError } from '../../src/interactions/user-facing-error.js';
import { InvalidKeyError, RelinkNeededError, StorageUnavailableError } from '../../src/links/errors.js';
import {
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
} from '../../src/stats-api/errors.js';

describe('the error table members see', () => {
	const cases: [string, unknown, string][] = [
		['401', new KeyRejectedError(401), MESSAGES.keyRejected],
		['403', new KeyRejectedError(403), MESSAGES.keyRejected],
		['feature unavailable', new FeatureUnavailableError(503), MESSAGES.featureUnavailable],
		['429 with Retry-After', new RateLimitedError(12.2), 'The stats service is busy. Try again in 13 s.'],
		['429 without Retry-After', new RateLimitedError(null), 'The stats service is busy. Try again in a little while.'],
		['unreachable', new UpstreamUnreachableError('timeout'), MESSAGES.unreachable],
		['malformed', new ProtocolError('not JSON'), MESSAGES.protocol],
		['undecryptable link', new RelinkNeededError(), MESSAGES.relinkNeeded],
		['storage outage', new StorageUnavailableError(), MESSAGES.storage],
		['bad pasted key', new InvalidKeyError('That key is too short.'), 'That key is too short.'],
		['handler message', new UserFacingError('Only admins.'), 'Only admins.'],
	];
	for (const [what, error, expected] of cases) {
		it(`maps ${what}`, () => assert.equal(describeExpectedError(error), expected));
	}

	it('leaves bugs to the incident path', () => {
		assert.equal(describeExpectedError(new TypeError('x is undefined')), null);
		assert.equal(describeExpectedError('a string'), null);
	});

	it('never quotes what the endpoint or the store said', () => {
		const leaky = new ProtocolError('<html>ask_secretbody</html>');
		assert.ok(!describeExpectedError(leaky)!.includes('ask_secretbody'));
	});
});
