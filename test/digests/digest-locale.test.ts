// The digest's "last seen Discord locale": what a process remembers of a member's locale, on a real SQLite store
// and an injected clock.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setDigest, type DigestContext } from '../../src/digests/digest-actions.js';
import { createDigestLocaleTracker, LOCALE_TRUSTED_FOR_MS } from '../../src/digests/digest-locale.js';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import { openWatchContext, type WatchTestContext } from '../watch/support.js';
import { manualClock, member, MEMBER, memberLinks, OTHER } from './support.js';

const clock = manualClock(Date.parse('2027-03-21T12:00:00Z'));
let env: WatchTestContext;
let ctx: DigestContext;

before(async () => {
	env = await openWatchContext(clock.now);
	ctx = { ...env.ctx, links: memberLinks(), now: clock.now };
});
after(async () => env.close());

const storedLocale = async (userId = MEMBER) => (await digestStoreOf(ctx).get(userId))?.locale;

test('writes a new locale into the digest, and never creates a digest for a member without one', async () => {
	await setDigest(ctx, member(), { enabled: true, locale: 'en-US' });
	const tracker = createDigestLocaleTracker(ctx);
	await tracker.seen(MEMBER, 'de');
	assert.equal(await storedLocale(), 'de');
	await tracker.seen(OTHER, 'ja');
	assert.equal(await digestStoreOf(ctx).get(OTHER), null);
	await setDigest(ctx, member(), { enabled: false, locale: 'de' });
	await tracker.seen(MEMBER, 'fr');
	assert.equal(await storedLocale(), 'fr', 'a digest turned off keeps following, for when it is turned on again');
});

test('trusts what it read for ten minutes, then reads the store again', async () => {
	await setDigest(ctx, member(), { enabled: true, locale: 'en-US' });
	const tracker = createDigestLocaleTracker(ctx);
	await tracker.seen(MEMBER, 'ja');
	// Another process saw the member in German meanwhile.
	await createDigestLocaleTracker(ctx).seen(MEMBER, 'de');
	await tracker.seen(MEMBER, 'ja');
	assert.equal(await storedLocale(), 'de', 'within the window this process does not read the store');
	clock.set(clock.now() + LOCALE_TRUSTED_FOR_MS);
	await tracker.seen(MEMBER, 'ja');
	assert.equal(await storedLocale(), 'ja');
});

test('a different locale is never trusted from memory, and memory holds a bounded number of members', async () => {
	await setDigest(ctx, member(), { enabled: true, locale: 'en-US' });
	const tracker = createDigestLocaleTracker(ctx, { kept: 2 });
	await tracker.seen(MEMBER, 'pt-BR');
	await tracker.seen(MEMBER, 'tr');
	assert.equal(await storedLocale(), 'tr');
	await tracker.seen('300000000000000050', 'de');
	await tracker.seen('300000000000000051', 'de');
	// MEMBER was forgotten: the next sighting reads the store again and finds the German written elsewhere.
	await createDigestLocaleTracker(ctx).seen(MEMBER, 'de');
	await tracker.seen(MEMBER, 'tr');
	assert.equal(await storedLocale(), 'tr');
});
