import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHistoryStore, type HistoryStore } from '../../src/history/history-store.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { serverLinkKey, userLinkKey } from '../../src/links/link-keys.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { forgetHistoryAfterUnlink, forgetHistoryIfUnread } from '../../src/stats/forget-history.js';
import { postgresBackend, redisBackend, sqliteBackend } from '../links/backends.js';
import type { Backend, OpenedBackend } from '../links/backends.js';

const backends: Backend[] = [sqliteBackend, await redisBackend(), await postgresBackend()];

/** A link record as the link store writes it; only `accountName` matters here, the sealed key is a stand-in. */
function linkRecord(accountName: string | null) {
	return {
		v: 1,
		kid: 'k1',
		sealedKey: 'c2VhbGVk',
		keyHint: 'abcd',
		accountName,
		verified: accountName !== null,
		linkedAt: 1_790_000_000_000,
		linkedBy: null,
	};
}

/** The bot's clock, pinned: the snapshots and the history agree on one UTC day whenever the test runs. */
const NOW = Date.parse('2026-11-23T12:18:00Z');

function snapshotOf(user: string): StatsSnapshot {
	return {
		sends: { today: 1, weekly: 1, monthly: 1, allTime: 1, failedAllTime: 0, dailyBreakdown: [] },
		joins: { today: 0, weekly: 0, monthly: 0, allTime: 0 },
		meta: { generatedAt: new Date(NOW).toISOString(), user },
	};
}

for (const backend of backends) {
	if (backend.unavailable) {
		if (process.env.CI === 'true')
			test(`${backend.name} is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		else test(`forgetting history on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		continue;
	}

	describe(`forgetting history on ${backend.name}`, () => {
		let opened: OpenedBackend;
		let history: HistoryStore;
		before(async () => {
			opened = await backend.open();
			history = createHistoryStore({ keyv: opened.stores.history, now: () => NOW });
		});
		after(async () => opened.cleanup());

		test('the history stays while any member or server link reads the account, and goes with the last', async () => {
			const { stores } = opened;
			const ctx = { stores, history };
			await history.record(snapshotOf('Acme'));
			await history.record(snapshotOf('Other'));
			// Enough links for the listing to take more than one page.
			await Promise.all(
				Array.from({ length: 300 }, (_, index) => stores.links.set(userLinkKey(`9${index}`), linkRecord('Other'))),
			);
			await stores.links.set(userLinkKey('1'), linkRecord(null));
			await stores.links.set(serverLinkKey('7'), linkRecord('Acme'));

			assert.equal(await forgetHistoryIfUnread(ctx, 'Acme'), false, 'the server still reads Acme');
			assert.notEqual(await history.read(historyAccountId('Acme')), null);

			await stores.links.delete(serverLinkKey('7'));
			assert.equal(await forgetHistoryIfUnread(ctx, 'Acme'), true);
			assert.equal(await history.read(historyAccountId('Acme')), null);
			assert.notEqual(await history.read(historyAccountId('Other')), null, "another account's history stays");
			assert.equal(await forgetHistoryIfUnread(ctx, 'Acme'), false, 'nothing left to delete');
		});

		test('a failing history store is logged after an unlink, not thrown at the member', async () => {
			const warnings: string[] = [];
			const failing: HistoryStore = {
				...history,
				remove: async () => {
					throw new Error('store down');
				},
			};
			const log = { warn: (_fields: object, message: string) => warnings.push(message) };
			await forgetHistoryAfterUnlink(
				{ stores: opened.stores, history: failing, log } as unknown as Parameters<typeof forgetHistoryAfterUnlink>[0],
				'Nobody',
			);
			assert.deepEqual(warnings, ['history of an unlinked account not deleted']);
		});
	});
}
