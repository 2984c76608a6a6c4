// Show, export, forget, purge, backup and restore on SQLite, Redis and PostgreSQL, over records the features wrote
// through their own actions. After a forget the raw store (every byte of a SQLite file, every Redis key and value,
// every PostgreSQL row, claims included) is searched for the member's id; after a purge, for the server's.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { countFigures } from '../../src/core/count-records.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { KEYV_NAMESPACES_OF_KINDS, kindOf } from '../../src/core/record-kinds.js';
import { backup } from '../../src/privacy/backup.js';
import { describeForgotten, describeHeld } from '../../src/privacy/describe-privacy.js';
import { forgetMember } from '../../src/privacy/forget-member.js';
import { translator } from '../../src/i18n/index.js';
import { exportMember, showMember } from '../../src/privacy/member-data.js';
import { purgeServer } from '../../src/privacy/purge-server.js';
import { BadBackupLineError, restore, StoreNotEmptyError } from '../../src/privacy/restore.js';
import { listEntries } from '../../src/store/list-entries.js';
import { startOutside, startStoreRun, storeTargets, type Outside, type StoreRun } from '../actions/store-runs.js';
import { usable } from '../discord/shared-stores.js';
import { buildMemberWorld, type MemberWorld } from './member-world.js';

/**
 * Every byte the run stored, the SQLite file's WAL included: forget, purge and restore leave no copy of a deleted
 * record beside the data (secure_delete, then a checkpoint that empties the WAL).
 */
async function rawStore(run: StoreRun): Promise<string> {
	return run.dumpRaw();
}

/** Every data record of a store, `namespace key` → the entry as stored. */
async function dataRecords(ctx: CoreContext): Promise<Map<string, string>> {
	const records = new Map<string, string>();
	for (const namespace of KEYV_NAMESPACES_OF_KINDS) {
		for await (const { key, raw } of listEntries(ctx.stores, namespace)) {
			if (kindOf(namespace, key)?.keeping === 'data') records.set(`${namespace} ${key}`, raw);
		}
	}
	return records;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);

for (const target of await storeTargets()) {
	const title = 'what the bot holds about a member and a server';
	if (target.name !== 'sqlite' && !usable(target, title)) continue;

	describe(`${title} on ${target.name}`, () => {
		let outside: Outside;
		let run: StoreRun;
		let ctx: CoreContext;
		let world: MemberWorld;
		const dir = mkdtempSync(join(tmpdir(), 'privacy-'));
		const before_forget = join(dir, 'before-forget.jsonl');
		const after_forget = join(dir, 'after-forget.jsonl');

		before(async () => {
			outside = await startOutside();
			run = await startStoreRun(target, outside);
			({ ctx } = await run.open());
			world = await buildMemberWorld(ctx, outside, target.name);
		});
		after(async () => {
			await run?.cleanup();
			await outside?.close();
			rmSync(dir, { recursive: true, force: true });
		});

		it('exports every record the member owns or is named in, history included, never a key', async () => {
			const exported = await exportMember(ctx, world.memberId);
			assert.equal(exported.user_id, world.memberId);
			assert.ok(!Number.isNaN(Date.parse(exported.generated_at)));
			const kinds = exported.records.map((record) => record.kind).sort();
			assert.deepEqual(kinds, [
				'alert',
				'board',
				'digest',
				'history',
				'link',
				'memberGoals',
				'memberNotes',
				'report',
				'serverGoals',
				'serverLink',
				'session',
				'statChannel',
				'webhook',
			]);
			const json = JSON.stringify(exported);
			for (const field of ['sealedUrl', 'sealedSecret', '/Zq9x']) assert.ok(!json.includes(field), `no ${field}`);
			const webhook = exported.records.find((record) => record.kind === 'webhook')!;
			assert.equal(webhook.hint, 'hooks.example.com …Zq9x', 'the webhook named by its host and last 4 only');
			for (const key of [world.memberKey, world.serverKey]) assert.ok(!json.includes(key), 'no key in the export');
			assert.ok(!json.includes('sealedKey'));
			const link = exported.records.find((record) => record.kind === 'link')!;
			assert.equal(link.keyHint, world.memberKey.slice(-4));
			assert.equal(link.accountName, world.memberAccount);
			const history = exported.records.find((record) => record.kind === 'history')!;
			assert.equal(history.accountName, world.memberAccount, "the member's own account only");
			assert.ok(!json.includes(world.otherId), "another admin's goal is not in the member's export");
			const digest = exported.records.find((record) => record.kind === 'digest')!;
			assert.equal(digest.locale, 'de', 'the language last seen');

			const shown = await showMember(ctx, world.memberId);
			assert.deepEqual(
				shown.map(({ kind, count }) => `${kind} ${count}`),
				exported.records.map((record) => `${record.kind} 1`),
			);
			assert.ok(shown.find((held) => held.kind === 'link')?.detail?.endsWith(world.memberKey.slice(-4)));
			assert.deepEqual(shown.find((held) => held.kind === 'report')?.servers, [world.guildId]);
			// In words, every kind the member is named in says its servers: keys they linked and webhooks included.
			const said = describeHeld(translator('en-US'), shown, 'en-US', null);
			for (const kind of ['Server keys you linked', 'Webhooks you added', 'Reports']) {
				assert.ok(said.includes(`- ${kind} that name you: 1 (servers ${world.guildId})`), `${kind} in:\n${said}`);
			}
			const notes = exported.records.find((record) => record.kind === 'memberNotes')!;
			assert.deepEqual(
				(notes.notes as { date: string; text: string }[]).map(({ date, text }) => `${date} ${text}`),
				['2026-11-02 campaign A started', '2026-11-03 second mail'],
				"the member's own notes, not the server's",
			);
		});

		it('forgets the member: no key or value of the raw store holds their id, the server keeps its records', async () => {
			await backup(ctx.stores, before_forget);
			assert.ok((await rawStore(run)).includes(world.memberId), 'the id was stored before');
			const forgot = await forgetMember(ctx, world.memberId);
			const { deleted, scrubbed } = forgot;
			assert.match(describeForgotten(translator('en-US'), forgot), /^- Webhooks you added: 1 \(your id removed/mu);
			for (const kind of [
				'link',
				'memberGoals',
				'memberNotes',
				'digest',
				'session',
				'history',
				'cooldown',
				'workClaim',
			]) {
				assert.ok((deleted.get(kind) ?? 0) >= 1, `${kind} deleted`);
			}
			assert.deepEqual(
				[...scrubbed.keys()].sort(),
				['alert', 'board', 'report', 'serverGoals', 'serverLink', 'statChannel', 'webhook'],
				'the server records that named them',
			);
			const raw = await rawStore(run);
			assert.ok(!raw.includes(world.memberId), "no trace of the member's id");
			assert.ok(raw.includes(world.otherId), "the other admin's records stay");
			const figures = new Map(await countFigures(ctx.stores));
			for (const label of [
				'reports',
				'stat channels',
				'alerts',
				'boards',
				'server goals',
				'server notes',
				'server links',
			]) {
				assert.equal(figures.get(label), 1, label);
			}
			assert.equal(figures.get('links'), 1, "the other admin's link");
			assert.equal(figures.get('forgotten members'), 1);
			assert.equal(figures.get('history accounts'), 2, "the server's and the other admin's");
			assert.deepEqual(await showMember(ctx, world.memberId), []);
			const again = await forgetMember(ctx, world.memberId);
			assert.equal(total(again.deleted) + total(again.scrubbed), 0, 'a second forget finds nothing');
		});

		it('a backup restored into an empty store gives equal counts and equal records', async () => {
			const counts = await backup(ctx.stores, after_forget);
			assert.ok(total(counts) > 10);
			assert.ok(!readFileSync(after_forget, 'utf8').includes(world.serverKey), 'keys stay sealed');
			const second = await startStoreRun(target, outside);
			try {
				const { ctx: empty } = await second.open();
				const result = await restore({ ...empty, config: ctx.config }, after_forget, { replace: false });
				assert.deepEqual(result.restored, counts);
				assert.deepEqual(await countFigures(empty.stores), await countFigures(ctx.stores));
				assert.deepEqual(await dataRecords(empty), await dataRecords(ctx));
			} finally {
				await second.cleanup();
			}
		});

		it('refuses a store with data; a bad line changes nothing and names its line', async () => {
			const before = await dataRecords(ctx);
			await assert.rejects(restore(ctx, before_forget, { replace: false }), StoreNotEmptyError);
			const lines = readFileSync(before_forget, 'utf8').split('\n');
			lines.splice(2, 1, '{"kind":"report","key":"nonsense","raw":"{}"}');
			const bad = join(dir, 'bad.jsonl');
			writeFileSync(bad, lines.join('\n'));
			await assert.rejects(restore(ctx, bad, { replace: true }), (error: unknown) => {
				assert.ok(error instanceof BadBackupLineError);
				assert.equal(error.line, 3);
				return true;
			});
			assert.deepEqual(await dataRecords(ctx), before, 'nothing changed');
		});

		it("restoring a backup from before the forget skips the member's records and their id", async () => {
			const result = await restore(ctx, before_forget, { replace: true });
			assert.ok(result.skipped >= 4, `${result.skipped} skipped`);
			assert.ok(result.scrubbed >= 6, `${result.scrubbed} scrubbed`);
			assert.ok(!(await rawStore(run)).includes(world.memberId));
			assert.equal(new Map(await countFigures(ctx.stores)).get('reports'), 1);
		});

		it("purges a server: nothing of the raw store holds its id, members' records stay", async () => {
			const deleted = await purgeServer(ctx, world.guildId);
			for (const kind of [
				'serverLink',
				'settings',
				'report',
				'statChannel',
				'alert',
				'board',
				'serverGoals',
				'serverNotes',
			]) {
				assert.equal(deleted.get(kind), 1, kind);
			}
			assert.equal(deleted.get('history'), 1, "the server account's history");
			const raw = await rawStore(run);
			assert.ok(!raw.includes(world.guildId), "no trace of the server's id");
			const figures = new Map(await countFigures(ctx.stores));
			assert.equal(figures.get('links'), 1);
			assert.equal(figures.get('history accounts'), 1, "the other admin's account");
		});
	});
}
