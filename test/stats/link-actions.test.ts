import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_API_KEY_LENGTH, MIN_API_KEY_LENGTH } from '../../src/api-key.js';
import { describeExpectedError } from '../../src/error-messages.js';
import { UpstreamUnreachableError, UserFacingError } from '../../src/errors.js';
import { Cooldowns } from '../../src/store/cooldowns.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { link, unlink } from '../../src/stats/link-actions.js';
import { makeSnapshot } from '../history/snapshots.js';
import { GUILD, NOW, openActionContext, type ActionTestContext } from './action-support.js';

const USER = '330000000000000001';
const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';

/** Everything an error could show a member or a log: its message, its words' values, its cause. */
const everythingIn = (error: unknown) =>
	JSON.stringify({ error, message: (error as Error).message, facing: describeExpectedError(error) });

describe('link and unlink, the actions', () => {
	let t: ActionTestContext;
	before(async () => {
		t = await openActionContext();
		t.accounts.set(KEY, 'acme');
	});
	after(async () => t.close());

	test('a key the stats API knows is stored sealed, under the member, and read back', async () => {
		const info = await link(t.ctx, USER, `  ${KEY}\n`);
		assert.equal(info.accountName, 'acme');
		assert.equal(info.verified, true);
		assert.equal(info.keyHint, KEY.slice(-4));
		assert.equal((await t.ctx.links.getUserKey(USER))?.apiKey, KEY);
		const store = await t.dumpStore();
		assert.ok(!store.includes(KEY), 'no key in clear in the store');
		assert.ok(!store.includes(Buffer.from(KEY).toString('base64')), 'nor as base64');
	});

	test("a key the stats API rejects becomes /link's words, quotes nothing and replaces nothing", async () => {
		const rejected = 'sk_live_RejectedRejected00';
		const error = await link(t.ctx, USER, rejected).catch((caught: unknown) => caught);
		assert.ok(error instanceof UserFacingError);
		assert.equal(error.key, 'errors.linkKeyRejected');
		assert.ok(!everythingIn(error).includes(rejected));
		assert.equal((await t.ctx.links.getUserKey(USER))?.apiKey, KEY, 'the earlier link stays');
	});

	test('a value that is no key is refused before the stats API is asked', async () => {
		const calls = t.verifyCalls;
		const error = await link(t.ctx, '330000000000000002', 'short').catch((caught: unknown) => caught);
		assert.deepEqual(describeExpectedError(error), {
			key: 'errors.invalidKeyLength',
			vars: { min: MIN_API_KEY_LENGTH, max: MAX_API_KEY_LENGTH },
		});
		assert.equal(t.verifyCalls, calls);
		assert.equal(await t.ctx.links.getUserLink('330000000000000002'), null);
	});

	test('an unreachable stats API: nothing saved, and the words say to run /link again', async () => {
		const unreachable = {
			cooldowns: t.ctx.cooldowns,
			links: {
				...t.ctx.links,
				linkUser: async () => {
					throw new UpstreamUnreachableError('connect ECONNREFUSED');
				},
			},
		};
		const error = await link(unreachable, '330000000000000003', KEY).catch((caught: unknown) => caught);
		assert.ok(error instanceof UserFacingError);
		assert.equal(error.key, 'errors.keyNotSaved');
		assert.deepEqual(error.vars, { reason: { key: 'errors.unreachable' }, command: 'link' });
		assert.ok(!everythingIn(error).includes(KEY));
	});

	test("a second key within /link's cooldown is refused in its words, and the stats API is not asked", async () => {
		// An account of its own: the links made here must not hold acme's history in the test after this one.
		const key = 'sk_live_CoolingCooling0000';
		t.accounts.set(key, 'cooling');
		let clock = NOW;
		const ctx = { ...t.ctx, cooldowns: new Cooldowns(30, () => clock) };
		const userId = '330000000000000004';
		await link(ctx, userId, key);
		const calls = t.verifyCalls;
		clock += 10_000;
		await assert.rejects(
			link(ctx, userId, key),
			(error: unknown) =>
				error instanceof UserFacingError && error.key === 'errors.cooldown' && error.vars.seconds === 20,
		);
		assert.equal(t.verifyCalls, calls, 'no key went to the stats API during the cooldown');
		await link(ctx, '330000000000000005', key).then((info) => assert.equal(info.accountName, 'cooling', 'per member'));
		clock += 20_000;
		assert.equal((await link(ctx, userId, key)).accountName, 'cooling', 'after it, the member links again');
	});

	test('unlink removes the link; the history goes once no link reads the account', async () => {
		await t.ctx.history.record(makeSnapshot({ generatedAt: new Date(NOW).toISOString(), user: 'acme' }));
		await t.ctx.links.linkServer(GUILD, KEY, USER);
		assert.deepEqual(await unlink(t.ctx, USER), { removed: true });
		assert.equal(await t.ctx.links.getUserLink(USER), null);
		assert.notEqual(await t.ctx.history.read(historyAccountId('acme')), null, 'the server still reads acme');

		await link(t.ctx, USER, KEY);
		await t.ctx.links.removeServerLink(GUILD);
		assert.deepEqual(await unlink(t.ctx, USER), { removed: true });
		assert.equal(await t.ctx.history.read(historyAccountId('acme')), null, 'the last link took the history along');
		assert.deepEqual(await unlink(t.ctx, USER), { removed: false }, 'nothing left to remove');
	});
});
