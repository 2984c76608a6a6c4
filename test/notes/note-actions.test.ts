// The note actions as both front ends call them, with the services the bot opens, the Discord stand-in for the audit
// channel and the real stats service for the keys: every refusal (dates, text, permissions, keys), the limit of 50
// per scope held when two processes add at once on a shared store, scope separation, and the audit lines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../../src/core/actor.js';
import { UserFacingError } from '../../src/errors.js';
import { addNote, listNotes, removeNote } from '../../src/notes/note-actions.js';
import { MAX_NOTES_PER_SCOPE } from '../../src/notes/note-record.js';
import { notesForTarget } from '../../src/notes/note-store.js';
import { setSettings } from '../../src/settings/settings-actions.js';
import { link } from '../../src/stats/link-actions.js';
import { setServerKey } from '../../src/stats/server-key-actions.js';
import { uniqueSnowflake, usable } from '../discord/shared-stores.js';
import {
	startOutside,
	startStoreRun,
	storeTargets,
	type OpenedCore,
	type Outside,
	type StoreRun,
} from '../actions/store-runs.js';

const LOCALE = 'en-US';
/** The bot's clock in these tests: 29 November 2026, noon UTC. */
const NOW = Date.UTC(2026, 10, 29, 12);
const actorOf = (userId: string, canManageServer: boolean, origin: Actor['origin'] = 'discord'): Actor => ({
	userId,
	canManageServer,
	roleIds: [],
	origin,
});

async function refusal(promise: Promise<unknown>): Promise<UserFacingError> {
	const error = await promise.then(
		() => null,
		(reason: unknown) => reason,
	);
	assert.ok(error instanceof UserFacingError, `expected a refusal, got ${String(error)}`);
	return error;
}

for (const target of await storeTargets()) {
	const title = 'note actions';
	if (target.name !== 'sqlite' && !usable(target, title)) continue;
	const shared = target.name !== 'sqlite';

	describe(`${title} on ${target.name}`, () => {
		const admin = actorOf(uniqueSnowflake('41'), true, 'dashboard');
		const member = actorOf(uniqueSnowflake('42'), false);
		let outside: Outside;
		let run: StoreRun;
		let web: OpenedCore['ctx'];
		let other: OpenedCore['ctx'];
		let guildId: string;
		let auditChannel: string;
		const server = () => ({ scope: 'server', guildId, guildLocale: LOCALE });
		const mine = () => ({ scope: 'me', guildId, guildLocale: LOCALE });

		before(async () => {
			outside = await startOutside();
			run = await startStoreRun(target, outside);
			const opened = await run.open();
			web = { ...opened.ctx, now: () => NOW };
			other = shared ? { ...(await run.open()).ctx, now: () => NOW } : web;
			const guild = outside.sandbox.guilds[0]!;
			guildId = guild.id;
			auditChannel = guild.channelIds[1]!;
			await setSettings(
				web,
				admin,
				guildId,
				{ 'audit-channel': { id: auditChannel, type: 0 } },
				{ guildLocale: LOCALE },
			);
		});
		after(async () => {
			await run?.cleanup();
			await outside?.close();
		});

		it('refuses: no link for scope:me, no server key, no Manage Server for scope:server; nothing stored', async () => {
			const input = { date: '2026-11-01', text: 'campaign A started' };
			assert.equal((await refusal(addNote(web, member, { ...mine(), ...input }))).key, 'note.needsLink');
			assert.equal((await refusal(addNote(web, admin, { ...server(), ...input }))).key, 'note.needsServerKey');
			await setServerKey(web, admin, guildId, outside.createAccount(`Notes_${target.name}`), { guildLocale: LOCALE });
			const denied = await refusal(addNote(web, member, { ...server(), ...input }));
			assert.equal(denied.key, 'errors.manageServerRequired');
			assert.deepEqual(denied.vars, { command: 'note' });
			assert.equal((await refusal(listNotes(web, member, server()))).key, 'errors.manageServerRequired');
			assert.equal(
				(await refusal(removeNote(web, member, { ...server(), note: 'abcd' }))).key,
				'errors.manageServerRequired',
			);
			assert.equal(
				(await refusal(addNote(web, admin, { ...input, scope: 'server', guildId: null }))).key,
				'stats.serverScopeGuildOnly',
			);
			assert.equal(
				(await refusal(addNote(web, admin, { ...server(), ...input, scope: 'all' }))).key,
				'stats.invalidScope',
			);
			assert.deepEqual((await listNotes(web, admin, server())).notes, [], 'nothing stored by a refusal');
		});

		it('a date must be a real UTC day from 2000-01-01 to today; the reason is named', async () => {
			const cases: [string | null, string, Record<string, unknown> | undefined][] = [
				['2026-02-30', 'note.notADay', { date: '2026-02-30' }],
				['2025-02-29', 'note.notADay', { date: '2025-02-29' }],
				['2026-13-01', 'note.notADay', { date: '2026-13-01' }],
				['2026-11-00', 'note.notADay', { date: '2026-11-00' }],
				['26-11-01', 'note.invalidDate', undefined],
				['2026/11/01', 'note.invalidDate', undefined],
				['yesterday', 'note.invalidDate', undefined],
				[null, 'note.invalidDate', undefined],
				['1999-12-31', 'note.tooEarly', { date: '1999-12-31', first: '2000-01-01' }],
				['2026-11-30', 'note.inFuture', { date: '2026-11-30', today: '2026-11-29' }],
			];
			for (const [date, key, vars] of cases) {
				const error = await refusal(addNote(web, admin, { ...server(), date, text: 'x' }));
				assert.equal(error.key, key, String(date));
				if (vars) assert.deepEqual(error.vars, vars, String(date));
			}
			// 29 February of a leap year, the first day allowed and today are days.
			for (const date of ['2024-02-29', '2000-01-01', '2026-11-29']) {
				const { note } = await addNote(web, admin, { ...server(), date, text: `on ${date}` });
				assert.equal(note.date, date);
			}
			const listed = await listNotes(web, admin, server());
			assert.deepEqual(
				listed.notes.map((note) => note.date),
				['2000-01-01', '2024-02-29', '2026-11-29'],
				'oldest day first',
			);
			for (const note of listed.notes) await removeNote(web, admin, { ...server(), note: note.id });
		});

		it('the text is 1 to 60 characters on one line', async () => {
			for (const text of ['', '   ', '\n\t', 'x'.repeat(61), '日'.repeat(61), null]) {
				const error = await refusal(addNote(web, admin, { ...server(), date: '2026-11-01', text }));
				assert.equal(error.key, 'note.invalidText', JSON.stringify(text));
				assert.deepEqual(error.vars, { max: 60 });
			}
			const sixty = '日'.repeat(60);
			const { note } = await addNote(web, admin, { ...server(), date: '2026-11-01', text: sixty });
			assert.equal(note.text, sixty, '60 characters (code points, not bytes) are allowed');
			const { note: folded } = await addNote(web, admin, { ...server(), date: '2026-11-01', text: ' two\nlines\t ' });
			assert.equal(folded.text, 'two lines');
			for (const kept of [note, folded])
				assert.ok((await removeNote(web, admin, { ...server(), note: kept.id })).removed);
		});

		it(`at most ${MAX_NOTES_PER_SCOPE} per scope, held when two processes add at once`, async () => {
			const adds = Array.from({ length: MAX_NOTES_PER_SCOPE + 6 }, (_, index) =>
				addNote(index % 2 === 0 ? web : other, admin, {
					...server(),
					date: `2026-10-${String((index % 28) + 1).padStart(2, '0')}`,
					text: `note ${index}`,
				}).then(
					() => 'added',
					(error: unknown) => {
						assert.ok(error instanceof UserFacingError && error.key === 'note.tooMany', String(error));
						assert.deepEqual(error.vars, { max: MAX_NOTES_PER_SCOPE });
						return 'refused';
					},
				),
			);
			const outcomes = await Promise.all(adds);
			assert.equal(outcomes.filter((outcome) => outcome === 'added').length, MAX_NOTES_PER_SCOPE);
			const listed = await listNotes(other, admin, server());
			assert.equal(listed.notes.length, MAX_NOTES_PER_SCOPE);
			assert.equal(listed.max, MAX_NOTES_PER_SCOPE);
			// One removed, one more fits.
			assert.ok((await removeNote(web, admin, { ...server(), note: listed.notes[0]!.id })).removed);
			await addNote(web, admin, { ...server(), date: '2026-11-02', text: 'fits again' });
			assert.equal(
				(await refusal(addNote(web, admin, { ...server(), date: '2026-11-02', text: 'no' }))).key,
				'note.tooMany',
			);
			for (const note of (await listNotes(web, admin, server())).notes) {
				await removeNote(web, admin, { ...server(), note: note.id });
			}
		});

		it("a member's notes and the server's never mix; a chart's target reads its own scope only", async () => {
			await link(web, member.userId, outside.createAccount(`NoteMember_${target.name}`));
			await addNote(web, member, { ...mine(), date: '2026-11-10', text: 'my own mail' });
			await addNote(web, admin, { ...server(), date: '2026-11-11', text: 'server campaign' });
			const texts = (notes: readonly { text: string }[]) => notes.map((note) => note.text);
			assert.deepEqual(texts((await listNotes(web, member, mine())).notes), ['my own mail']);
			assert.deepEqual(texts((await listNotes(web, admin, server())).notes), ['server campaign']);
			assert.deepEqual(texts((await listNotes(web, admin, mine())).notes), [], "the admin's own: none");
			const meTarget = { scope: 'me' as const, userId: member.userId, guildId };
			const serverTarget = { scope: 'server' as const, userId: member.userId, guildId };
			assert.deepEqual(texts(await notesForTarget(other, meTarget)), ['my own mail']);
			assert.deepEqual(texts(await notesForTarget(other, serverTarget)), ['server campaign']);
			// A member removing by another scope's id removes nothing.
			const serverNote = (await listNotes(web, admin, server())).notes[0]!;
			assert.equal((await removeNote(web, member, { ...mine(), note: serverNote.id })).removed, null);
			assert.equal((await listNotes(web, admin, server())).notes.length, 1);
		});

		it('server notes are audited as from the dashboard, the text without markdown or mentions', async () => {
			const seen = outside.sandbox.channelMessages(auditChannel).length;
			const { note } = await addNote(web, admin, { ...server(), date: '2026-11-12', text: '@everyone **big** day' });
			await removeNote(web, admin, { ...server(), note: note.id });
			const lines = outside.sandbox
				.channelMessages(auditChannel)
				.slice(seen)
				.map((message) => message.content);
			assert.equal(lines.length, 2, lines.join('\n'));
			assert.match(
				lines[0]!,
				new RegExp(
					`^📝 <@${admin.userId}> \\(dashboard\\) added a note on 2026-11-12 to the server's charts: @\u200beveryone \\\\\\*\\\\\\*big\\\\\\*\\\\\\* day \\(<t:\\d+:F>\\)\\.$`,
					'u',
				),
			);
			assert.match(lines[1]!, /removed the note on 2026-11-12/u);
			// A member's own notes are theirs: no audit line.
			await addNote(web, member, { ...mine(), date: '2026-11-12', text: 'quiet' });
			assert.equal(outside.sandbox.channelMessages(auditChannel).length, seen + 2);
		});
	});
}
