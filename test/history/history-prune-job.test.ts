import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createClient } from '@redis/client';
import { claimOnce, openCoordinator, type Coordinator } from '../../src/core/claims.js';
import type { Turn } from '../../src/core/periodic-runner.js';
import { historyPruneClaimKey, historyPruneJob, storedHistoryIds } from '../../src/history/history-prune-job.js';
import { createHistoryStore, type HistoryStore } from '../../src/history/history-store.js';
import type { HistoryDay, HistoryRecord } from '../../src/history/record.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { REDIS_URL } from '../links/backends.js';

const NOW = Date.parse('2026-11-29T06:00:00Z');
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 400;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const turn = { item: undefined, round: 0, dueAt: NOW, latenessMs: 0, stopping: false } as unknown as Turn;

/** One bot process: its stores, claims and history store over a shared store at `url`. */
interface Process {
	stores: Stores;
	coordinator: Coordinator;
	history: HistoryStore;
	close(): Promise<void>;
}

async function openProcess(url: string, prefix: string, now: () => number): Promise<Process> {
	const stores = await openStores(url, { namespacePrefix: prefix });
	const coordinator = await openCoordinator(url, { namespacePrefix: prefix, now });
	const history = createHistoryStore({ keyv: stores.history, historyDays: HISTORY_DAYS, now });
	return {
		stores,
		coordinator,
		history,
		close: async () => {
			await coordinator.close();
			await stores.close();
		},
	};
}

function pruneJob(process: Process, now: () => number, pruned: string[] = []) {
	return historyPruneJob({
		listAccountIds: () => storedHistoryIds(process.stores),
		history: {
			prune: async (accountId, firstKept) => {
				pruned.push(accountId);
				return process.history.prune(accountId, firstKept);
			},
		},
		historyDays: HISTORY_DAYS,
		claimOnce: claimOnce(process.coordinator),
		now,
		log: silent,
	});
}

const day = (value: number): HistoryDay => ({ sends: { value, at: NOW } });
const record = (days: Record<string, HistoryDay>): HistoryRecord => ({ v: 1, updatedAt: NOW - DAY_MS, days });

async function isListening(url: string): Promise<boolean> {
	const { hostname, port } = new URL(url);
	return new Promise((resolve) => {
		const socket = connect({ host: hostname, port: Number(port) });
		socket.setTimeout(1000, () => socket.destroy());
		socket.once('connect', () => {
			socket.end();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
		socket.once('close', () => resolve(false));
	});
}

interface SharedStore {
	url: string;
	prefix: string;
	cleanup(): Promise<void>;
}

const backends: { name: string; unavailable: () => Promise<string | null>; open: () => Promise<SharedStore> }[] = [
	{
		name: 'sqlite',
		unavailable: async () => null,
		open: async () => {
			const dir = mkdtempSync(join(tmpdir(), 'history-prune-'));
			return {
				url: `sqlite://${join(dir, 'bot.sqlite')}`,
				prefix: '',
				cleanup: async () => rmSync(dir, { recursive: true, force: true }),
			};
		},
	},
	{
		name: 'redis',
		unavailable: async () => ((await isListening(REDIS_URL)) ? null : `redis not reachable at ${REDIS_URL}`),
		open: async () => {
			const prefix = `t${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;
			return {
				url: REDIS_URL,
				prefix,
				cleanup: async () => {
					const raw = createClient({ url: REDIS_URL });
					await raw.connect();
					const keys = await raw.keys(`${prefix}*`);
					if (keys.length > 0) await raw.del(keys);
					raw.destroy();
				},
			};
		},
	},
];

for (const backend of backends) {
	describe(`history prune on ${backend.name}`, async () => {
		const unavailable = await backend.unavailable();

		test(
			'drops days older than HISTORY_DAYS, keeps the recent ones, deletes a record left empty',
			{ skip: unavailable ?? false },
			async () => {
				const shared = await backend.open();
				const now = () => NOW;
				const bot = await openProcess(shared.url, shared.prefix, now);
				try {
					// HISTORY_DAYS = 400 ending 2026-11-29: the first day kept is 2025-10-26.
					await bot.stores.history.set(
						'mixed',
						record({ '2025-10-25': day(1), '2025-10-26': day(2), '2026-11-29': day(3) }),
					);
					await bot.stores.history.set('recent', record({ '2026-11-01': day(4) }));
					await bot.stores.history.set('old', record({ '2024-01-01': day(5), '2025-10-25': day(6) }));

					await pruneJob(bot, now).turn(turn);

					assert.deepEqual(Object.keys((await bot.history.read('mixed'))?.days ?? {}), ['2025-10-26', '2026-11-29']);
					assert.deepEqual(await bot.history.read('recent'), record({ '2026-11-01': day(4) }));
					assert.equal(await bot.stores.history.get('old'), undefined);
					const left: string[] = [];
					for await (const id of storedHistoryIds(bot.stores)) left.push(id);
					assert.deepEqual(left.sort(), ['mixed', 'recent']);
				} finally {
					await bot.close();
					await shared.cleanup();
				}
			},
		);

		test(
			'runs once a day across processes: a second process that day prunes nothing, the next day one does',
			{ skip: unavailable ?? false },
			async () => {
				const shared = await backend.open();
				let time = NOW;
				const now = () => time;
				const first = await openProcess(shared.url, shared.prefix, now);
				const second = await openProcess(shared.url, shared.prefix, now);
				try {
					await first.stores.history.set('a', record({ '2026-11-28': day(1) }));
					const firstPruned: string[] = [];
					const secondPruned: string[] = [];
					await pruneJob(first, now, firstPruned).turn(turn);
					time = NOW + 12 * 3_600_000;
					await second.stores.history.set('b', record({ '2024-01-01': day(2) }));
					await pruneJob(second, now, secondPruned).turn(turn);
					assert.deepEqual(firstPruned, ['a']);
					assert.deepEqual(secondPruned, [], 'the day was claimed by the first process');
					assert.notEqual(await second.stores.history.get('b'), undefined);
					assert.equal((await first.coordinator.claim(historyPruneClaimKey('2026-11-29'), 1000)).claimed, false);

					time = NOW + DAY_MS;
					await pruneJob(second, now, secondPruned).turn(turn);
					assert.deepEqual(secondPruned.sort(), ['a', 'b']);
					assert.equal(await second.stores.history.get('b'), undefined);
				} finally {
					await second.close();
					await first.close();
					await shared.cleanup();
				}
			},
		);
	});
}

test('a HISTORY_DAYS below 1 is refused', () => {
	assert.throws(
		() =>
			historyPruneJob({
				listAccountIds: async function* () {},
				history: { prune: async () => 'kept' },
				historyDays: 0,
				claimOnce: async () => true,
				now: () => NOW,
				log: silent,
			}),
		RangeError,
	);
});
