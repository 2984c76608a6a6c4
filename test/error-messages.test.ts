import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { translator } from '../src/i18n/index.js';
import { describeExpectedError, linkFailure } from '../src/error-messages.js';
import { renderMessage } from '../src/i18n/index.js';
import { UserFacingError } from '../src/errors.js';
import { InvalidKeyError, RelinkNeededError, StorageUnavailableError } from '../src/errors.js';
import {
	FeatureUnavailableError,
	KeyRejectedError,
	ProtocolError,
	RateLimitedError,
	UpstreamUnreachableError,
} from '../src/errors.js';

const en = translator('en-US');
const de = translator('de');
const describeIn = (t: typeof en, error: unknown) => {
	const message = describeExpectedError(error);
	return message === null ? null : renderMessage(t, message);
};

describe('the error table members see', () => {
	const cases: [string, unknown, string][] = [
		[
			'401',
			new KeyRejectedError(401),
			'The stats service rejected your API key. Run `/link` again with a current key.',
		],
		['feature unavailable', new FeatureUnavailableError(503), en('errors.featureUnavailable')],
		['429 with Retry-After', new RateLimitedError(12.2), 'The stats service is busy. Try again in 13 s.'],
		['429 without Retry-After', new RateLimitedError(null), 'The stats service is busy. Try again in a little while.'],
		[
			'429 with an absurd Retry-After',
			new RateLimitedError(1e23),
			'The stats service is busy. Try again in a little while.',
		],
		['unreachable', new UpstreamUnreachableError('timeout'), en('errors.unreachable')],
		['malformed', new ProtocolError('not JSON'), en('errors.protocol')],
		['undecryptable link', new RelinkNeededError(), en('errors.relinkNeeded')],
		['storage outage', new StorageUnavailableError(), en('errors.storage')],
		[
			'bad pasted key',
			new InvalidKeyError('length'),
			'That does not look like an API key: keys are 16 to 256 characters long.',
		],
		[
			'pasted key with a space',
			new InvalidKeyError('characters'),
			'That does not look like an API key: it contains spaces, line breaks or characters a key cannot have.',
		],
		[
			'handler message',
			new UserFacingError('stats.notOwner'),
			'Only the member who ran `/stats` can share this result.',
		],
	];
	for (const [what, error, expected] of cases) {
		it(`maps ${what}`, () => assert.equal(describeIn(en, error), expected));
	}

	it('speaks the reader’s language, numbers included', () => {
		assert.equal(describeIn(de, new RateLimitedError(1200)), de('errors.rateLimited', { seconds: 1200 }));
		assert.match(describeIn(de, new RateLimitedError(1200))!, /1\.200/);
		assert.notEqual(describeIn(de, new KeyRejectedError(401)), describeIn(en, new KeyRejectedError(401)));
	});

	it('a failed link says the key was not saved, in one translated message', () => {
		const text = describeIn(en, linkFailure(new UpstreamUnreachableError('timeout'), 'link'));
		assert.equal(text, `${en('errors.unreachable')}\nThe key was not saved; run \`/link\` again.`);
		const server = describeIn(en, linkFailure(new UpstreamUnreachableError('timeout'), 'server-key set'));
		assert.equal(server, `${en('errors.unreachable')}\nThe key was not saved; run \`/server-key set\` again.`);
	});

	it('a key rejected while linking names the command to run again, and says nothing was saved', () => {
		assert.equal(
			describeIn(en, linkFailure(new KeyRejectedError(403), 'link')),
			'The stats service rejected that key, so nothing was saved. Check it and run `/link` again.',
		);
		assert.equal(
			describeIn(en, linkFailure(new KeyRejectedError(401), 'server-key set')),
			'The stats service rejected that key, so nothing was saved. Check it and run `/server-key set` again.',
		);
	});

	it('a bad pasted key and a handler message pass through a failed link unchanged', () => {
		const invalid = new InvalidKeyError('length');
		assert.equal(linkFailure(invalid, 'link'), invalid);
		const facing = new UserFacingError('stats.notOwner');
		assert.equal(linkFailure(facing, 'server-key set'), facing);
		const bug = new TypeError('x is undefined');
		assert.equal(linkFailure(bug, 'link'), bug, 'a bug stays a bug, for the incident path');
	});

	it('leaves bugs to the incident path', () => {
		assert.equal(describeExpectedError(new TypeError('x is undefined')), null);
		assert.equal(describeExpectedError('a string'), null);
	});

	it('never quotes what the endpoint or the store said', () => {
		const leaky = new ProtocolError('<html>ask_secretbody</html>');
		assert.ok(!describeIn(en, leaky)!.includes('ask_secretbody'));
	});
});
