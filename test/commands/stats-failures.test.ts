import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { translator } from '../../src/i18n/index.js';

const en = translator('en-US');
import { assertAcknowledgedInTime, linkViaModal, startHarness, type Harness } from '../app/harness.js';
import { startSwitchableUpstream, type SwitchableUpstream } from './switchable-upstream.js';

const BUDGET_MS = 800;
let nextUser = 320000000000000001n;

describe('stats-client failures reach the member as clear private messages', () => {
	let h: Harness;
	let upstream: SwitchableUpstream;

	before(async () => {
		upstream = await startSwitchableUpstream('503-feature');
		h = await startHarness({
			upstreamUrl: upstream.url,
			env: { STATS_API_TIMEOUT_MS: String(BUDGET_MS), STATS_CACHE_TTL_SECONDS: '0' },
		});
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
		await upstream.close();
	});

	/** Links a fresh member while the endpoint is "not released" (so no snapshot is cached), then runs /stats. */
	async function statsDuring(scenario: string) {
		const userId = String(nextUser++);
		upstream.scenario = '503-feature';
		await linkViaModal(h, `scenario-key-${userId}-abcdef`, { userId });
		upstream.scenario = scenario;
		const handle = h.sandbox.dispatchCommand({ name: 'stats', userId });
		const acknowledgedAt = await assertAcknowledgedInTime(handle);
		const message = await handle.finalMessage(BUDGET_MS + 4000);
		assert.ok(message.isEphemeral, 'errors stay private');
		assert.deepEqual(message.embeds, []);
		return { message, acknowledgedAt, handle };
	}

	const cases: [string, string | RegExp][] = [
		['401', en('errors.keyRejected')],
		['403', en('errors.keyRejected')],
		['404', en('errors.featureUnavailable')],
		['501', en('errors.featureUnavailable')],
		['503-feature', en('errors.featureUnavailable')],
		['429', 'The stats service is busy. Try again in 17 s.'],
		['500', en('errors.unreachable')],
		['reset', en('errors.unreachable')],
		['not-json', en('errors.protocol')],
		['wrong-types', en('errors.protocol')],
		['negative', en('errors.protocol')],
		['huge', en('errors.protocol')],
	];
	for (const [scenario, expected] of cases) {
		it(`answers ${scenario} with its message`, async () => {
			const { message } = await statsDuring(scenario);
			if (typeof expected === 'string') assert.equal(message.content, expected);
			else assert.match(message.content, expected);
		});
	}

	it('an endpoint slower than the budget is acknowledged at once and answered when the budget ends', async () => {
		const { message, acknowledgedAt, handle } = await statsDuring('slow-headers');
		assert.ok(acknowledgedAt < 1000, `deferred after ${acknowledgedAt} ms`);
		assert.equal(message.content, en('errors.unreachable'));
		const answeredAt = handle.edits.at(-1)!.at;
		assert.ok(answeredAt < BUDGET_MS + 1500, `answered after ${answeredAt} ms`);
	});

	it('an unreachable endpoint shows the last snapshot, marked stale', async () => {
		const userId = String(nextUser++);
		upstream.scenario = 'ok';
		await linkViaModal(h, `scenario-key-${userId}-abcdef`, { userId });
		upstream.scenario = 'reset';
		const message = await h.sandbox.dispatchCommand({ name: 'stats', userId }).finalMessage(5000);
		assert.equal(message.embeds.length, 1);
		assert.match(JSON.stringify(message.embeds[0]).toLowerCase(), /stale/);
	});

	it('a share press that fails is answered privately and leaves the private result in place', async () => {
		const userId = String(nextUser++);
		upstream.scenario = 'ok';
		await linkViaModal(h, `scenario-key-${userId}-abcdef`, { userId });
		const privateReply = await h.sandbox.dispatchCommand({ name: 'stats', userId }).finalMessage(5000);
		upstream.scenario = '401';
		const press = h.sandbox.dispatchButton({
			customId: `stats:share:${userId}:me:30`,
			userId,
			messageId: privateReply.id,
		});
		await press.waitFor((x) => x.followUps.some((f) => f.status < 300), 5000);
		const note = press.followUps.find((f) => f.status < 300)!;
		assert.equal(note.flags & 64, 64, 'the error is private');
		assert.equal(note.data.content, en('errors.keyRejected'));
		assert.equal(privateReply.embeds.length, 1, 'the private result stays');
	});

	it('a null-filled answer shows dashes instead of failing', async () => {
		const { message } = await (async () => {
			const userId = String(nextUser++);
			upstream.scenario = '503-feature';
			await linkViaModal(h, `scenario-key-${userId}-abcdef`, { userId });
			upstream.scenario = 'nulls';
			return { message: await h.sandbox.dispatchCommand({ name: 'stats', userId }).finalMessage(5000) };
		})();
		assert.equal(message.embeds.length, 1);
		assert.match(JSON.stringify(message.embeds[0]), /—/);
	});
});
