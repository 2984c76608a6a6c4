// Every /stats shows its owner's goals. On SQLite (one process owns the file) the goal store keeps what it read or
// wrote, so a cache-hit /stats costs no store read; its own changes show at once, a change written to the file by
// another program within the minute. Processes sharing Redis or PostgreSQL read the store every time.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { goalStoreOf, goalsForTarget } from '../../src/goals/goal-store.js';
import { GOALS_SCHEMA_VERSION, goalsKey, type Goal, type GoalOwner } from '../../src/goals/goal-record.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { sharedStores, uniqueSnowflake, usable } from '../discord/shared-stores.js';

const goal = (target: number, period: Goal['period'] = 'month'): Goal => ({
	metric: 'sends',
	period,
	target,
	setBy: '1',
	setAt: 1_700_000_000_000,
});

/** The store's own reads of the `watch` namespace, counted as the store answers them. */
function countReads(stores: Stores): { readonly count: number } {
	const counter = { count: 0 };
	const get = stores.watch.get.bind(stores.watch);
	stores.watch.get = (async (...args: Parameters<typeof get>) => {
		counter.count += 1;
		return get(...args);
	}) as typeof stores.watch.get;
	return counter;
}

async function openProcess(storeUrl: string, prefix: string, now?: () => number) {
	const stores = await openStores(storeUrl, { namespacePrefix: prefix });
	const coordinator = await openCoordinator(storeUrl, { namespacePrefix: prefix });
	const ctx = { stores, coordinator, config: { storeUrl }, now };
	return {
		ctx,
		stores,
		reads: countReads(stores),
		close: async () => {
			await coordinator.close();
			await stores.close();
		},
	};
}

describe('goal store on sqlite: kept in the process', () => {
	const folder = mkdtempSync(join(tmpdir(), 'goal-cache-'));
	const storeUrl = `sqlite://${join(folder, 'bot.sqlite')}`;
	after(() => rmSync(folder, { recursive: true, force: true }));

	it('a second read costs no store read; its own changes show at once, another program within the minute', async () => {
		let clock = 1_800_000_000_000;
		const bot = await openProcess(storeUrl, 'a-', () => clock);
		try {
			const owner: GoalOwner = { scope: 'server', guildId: uniqueSnowflake('7') };
			const target = { scope: 'server' as const, userId: '5', guildId: owner.scope === 'server' ? owner.guildId : '' };
			assert.deepEqual(await goalsForTarget(bot.ctx, target), []);
			assert.deepEqual(await goalsForTarget(bot.ctx, target), []);
			assert.equal(bot.reads.count, 1, 'the owner without goals is kept too');

			const store = goalStoreOf(bot.ctx);
			await store.update(owner, () => [goal(1000)]);
			const readsAfterUpdate = bot.reads.count;
			const shown = await goalsForTarget(bot.ctx, target);
			assert.deepEqual(shown, [goal(1000)], 'its own change shows at once');
			shown[0]!.target = 5; // a caller changing its answer cannot change the next one
			shown.push(goal(3, 'week'));
			assert.deepEqual(await store.read(owner), [goal(1000)]);
			assert.equal(bot.reads.count, readsAfterUpdate, 'read from memory');

			await store.update(owner, () => []);
			assert.deepEqual(await store.read(owner), [], 'a removal shows at once');

			// Another program writes the file (a migration, say): shown once the minute is over.
			await bot.stores.watch.set(goalsKey(owner), { v: GOALS_SCHEMA_VERSION, goals: [goal(42)] });
			clock += 59_000;
			assert.deepEqual(await store.read(owner), []);
			clock += 1_000;
			assert.deepEqual(await store.read(owner), [goal(42)]);
		} finally {
			await bot.close();
		}
	});

	it('a read and a change at once: the next read shows the change', async () => {
		const bot = await openProcess(storeUrl, 'b-', () => 1_800_000_000_000);
		try {
			const owner: GoalOwner = { scope: 'me', userId: uniqueSnowflake('8') };
			const store = goalStoreOf(bot.ctx);
			const reading = store.read(owner);
			const updating = store.update(owner, () => [goal(7)]);
			await reading;
			await updating;
			assert.deepEqual(await store.read(owner), [goal(7)]);
		} finally {
			await bot.close();
		}
	});
});

describe('goals shown with the figures', () => {
	const folder = mkdtempSync(join(tmpdir(), 'goal-target-'));
	const storeUrl = `sqlite://${join(folder, 'bot.sqlite')}`;
	after(() => rmSync(folder, { recursive: true, force: true }));
	const target = { scope: 'me' as const, userId: '5', guildId: null };

	it('none when the store is unavailable, so the figures still answer', async () => {
		const bot = await openProcess(storeUrl, 'c-');
		await bot.close();
		assert.deepEqual(await goalsForTarget(bot.ctx, { ...target, userId: uniqueSnowflake('5') }), []);
	});

	it('any other failure reaches the caller', async () => {
		const bot = await openProcess(storeUrl, 'd-', () => {
			throw new TypeError('the clock broke');
		});
		try {
			await assert.rejects(goalsForTarget(bot.ctx, { ...target, userId: uniqueSnowflake('6') }), {
				name: 'TypeError',
				message: 'the clock broke',
			});
		} finally {
			await bot.close();
		}
	});
});

for (const target of await sharedStores()) {
	const title = 'goal store on a shared store: read every time';
	if (!usable(target, title)) continue;
	describe(`${title} (${target.name})`, () => {
		it("another process's change shows on the next read", async () => {
			const prefix = `goalcache${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;
			const one = await openProcess(target.url, prefix);
			const two = await openProcess(target.url, prefix);
			try {
				const owner: GoalOwner = { scope: 'server', guildId: uniqueSnowflake('9') };
				assert.deepEqual(await goalStoreOf(one.ctx).read(owner), []);
				await goalStoreOf(two.ctx).update(owner, () => [goal(500)]);
				assert.deepEqual(await goalStoreOf(one.ctx).read(owner), [goal(500)]);
				await goalStoreOf(two.ctx).update(owner, () => []);
				assert.deepEqual(await goalStoreOf(one.ctx).read(owner), []);
				assert.equal(one.reads.count, 3);
			} finally {
				await one.close();
				await two.close();
			}
		});
	});
}
