// Every /stats chart reads its scope's notes. On SQLite (one process owns the file) the note store keeps them, frozen
// and the same list each time (no copy per reply, and the chart's memo knows the list by itself); its own changes
// show at once. Processes sharing Redis or PostgreSQL read the store every time.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { noteStoreOf, notesForTarget } from '../../src/notes/note-store.js';
import type { Note } from '../../src/notes/note-record.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { openStores } from '../../src/store/open-stores.js';
import { uniqueSnowflake } from '../discord/shared-stores.js';

const note = (date: string, text: string): Note => ({ id: text, date, text, addedAt: 1_700_000_000_000 });

describe('note store on sqlite: kept in the process, frozen', () => {
	const folder = mkdtempSync(join(tmpdir(), 'note-cache-'));
	const storeUrl = `sqlite://${join(folder, 'bot.sqlite')}`;
	after(() => rmSync(folder, { recursive: true, force: true }));

	it('hands out one frozen list until it changes, and no store read for it', async () => {
		const stores = await openStores(storeUrl);
		const coordinator = await openCoordinator(storeUrl);
		try {
			let reads = 0;
			const get = stores.watch.get.bind(stores.watch);
			stores.watch.get = (async (...args: Parameters<typeof get>) => {
				reads += 1;
				return get(...args);
			}) as typeof stores.watch.get;
			const ctx = { stores, coordinator, config: { storeUrl } };
			const guildId = uniqueSnowflake('8');
			const target = { scope: 'server' as const, userId: '5', guildId };
			await noteStoreOf(ctx).update({ scope: 'server', guildId }, () => [
				note('2026-11-02', 'b'),
				note('2026-11-01', 'a'),
			]);
			const first = await notesForTarget(ctx, target);
			const readsAfterFirst = reads;
			const second = await notesForTarget(ctx, target);
			assert.equal(second, first, 'the same list');
			assert.equal(reads, readsAfterFirst, 'no store read');
			assert.deepEqual(
				first.map((kept) => kept.text),
				['a', 'b'],
				'oldest day first',
			);
			assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]));
			assert.throws(() => {
				(first as Note[]).push(note('2026-11-03', 'c'));
			}, TypeError);
			await noteStoreOf(ctx).update({ scope: 'server', guildId }, (notes) => notes.slice(1));
			const changed = await notesForTarget(ctx, target);
			assert.notEqual(changed, first);
			assert.deepEqual(
				changed.map((kept) => kept.text),
				['b'],
			);
			assert.deepEqual(await notesForTarget(ctx, { scope: 'me', userId: '5', guildId }), [], "a member's own: none");
		} finally {
			await coordinator.close();
			await stores.close();
		}
	});
});
