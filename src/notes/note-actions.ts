// Adding, removing and listing notes: the whole rule, for `/note` and the dashboard alike.
import { randomBytes } from 'node:crypto';
import { escapeMarkdown } from 'discord.js';
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import type { CoreContext } from '../core/core-context.js';
import { requireServerKey } from '../core/require-server-key.js';
import { UserFacingError } from '../errors.js';
import { utcDateOf } from '../history/utc-days.js';
import { auditTime, postAudit } from '../settings/audit.js';
import { codePointLength } from '../render/format.js';
import {
	FIRST_NOTE_DATE,
	isCalendarDay,
	MAX_NOTE_LENGTH,
	MAX_NOTES_PER_SCOPE,
	type Note,
	type NoteOwner,
} from './note-record.js';
import { noteStoreOf } from './note-store.js';

/** What the note actions use of the core's services; a CoreContext has all of it. */
export type NoteActionContext = Pick<
	CoreContext,
	'stores' | 'coordinator' | 'config' | 'links' | 'settings' | 'guildApi' | 'log' | 'now'
>;

/** Whose notes, as the member chose (`scope`, default `me`) and where they asked from. */
export interface NoteScopeInput {
	scope: string | null;
	/** The server asked from; null in a DM (or on /me). */
	guildId: string | null;
	/** The server's Discord locale, for the audit line while the server has no language set. */
	guildLocale?: string | null;
}

/** `/note add`'s options, or the dashboard's form fields, as given: the action checks every one. */
export interface NoteInput extends NoteScopeInput {
	date: string | null;
	text: string | null;
}

export interface NoteList {
	owner: NoteOwner;
	notes: readonly Note[];
	max: number;
}

/** Adds a note to the scope; the stored note. */
export async function addNote(
	ctx: NoteActionContext,
	actor: Actor,
	input: NoteInput,
): Promise<{ owner: NoteOwner; note: Note }> {
	const owner = await requireOwner(ctx, actor, input, { adding: true });
	const now = clockOf(ctx)();
	const date = readNoteDate(input.date, utcDateOf(now));
	const text = readNoteText(input.text);
	const note: Note = { id: randomBytes(4).toString('hex'), date, text, addedAt: now };
	await noteStoreOf(ctx).update(owner, (notes) => {
		if (notes.length >= MAX_NOTES_PER_SCOPE) throw new UserFacingError('note.tooMany', { max: MAX_NOTES_PER_SCOPE });
		return [...notes, note];
	});
	if (owner.scope === 'server') await auditNote(ctx, actor, owner.guildId, input, 'note.audit.added', note, now);
	return { owner, note };
}

/** Removes the scope's note with that id (what the autocomplete and the remove button give): the note, or null. */
export async function removeNote(
	ctx: NoteActionContext,
	actor: Actor,
	input: NoteScopeInput & { note: string | null },
): Promise<{ owner: NoteOwner; removed: Note | null }> {
	const owner = await requireOwner(ctx, actor, input, { adding: false });
	const id = input.note?.trim();
	if (!id) throw new UserFacingError('note.noteMissing');
	let removed: Note | null = null;
	await noteStoreOf(ctx).update(owner, (notes) => {
		removed = notes.find((note) => note.id === id) ?? null;
		return removed ? notes.filter((note) => note !== removed) : undefined;
	});
	if (removed && owner.scope === 'server') {
		await auditNote(ctx, actor, owner.guildId, input, 'note.audit.removed', removed, clockOf(ctx)());
	}
	return { owner, removed };
}

/** The scope's notes, oldest day first. scope:server needs Manage Server and the key, as adding does. */
export async function listNotes(ctx: NoteActionContext, actor: Actor, input: NoteScopeInput): Promise<NoteList> {
	const owner = await requireOwner(ctx, actor, input, { adding: false });
	return { owner, notes: await noteStoreOf(ctx).read(owner), max: MAX_NOTES_PER_SCOPE };
}

/** A `YYYY-MM-DD` day between 2000-01-01 and today (UTC), or the refusal that says why not. */
export function readNoteDate(value: string | null, today: string): string {
	const date = value?.trim() ?? '';
	if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UserFacingError('note.invalidDate');
	if (!isCalendarDay(date)) throw new UserFacingError('note.notADay', { date });
	if (date < FIRST_NOTE_DATE) throw new UserFacingError('note.tooEarly', { date, first: FIRST_NOTE_DATE });
	if (date > today) throw new UserFacingError('note.inFuture', { date, today });
	return date;
}

/** The text on one line (spaces, tabs and newlines become one space), 1–60 characters. */
export function readNoteText(value: string | null): string {
	// Control characters would draw as boxes on the chart and could break a line of a list.
	const text = (value ?? '').replace(/[\p{Cc}\s]+/gu, ' ').trim();
	const length = codePointLength(text);
	if (length < 1 || length > MAX_NOTE_LENGTH) throw new UserFacingError('note.invalidText', { max: MAX_NOTE_LENGTH });
	return text;
}

/**
 * The owner a scope names, once the actor may use it: scope:server needs a server, Manage Server (re-checked here:
 * Discord's default permission only hides a command) and a server key; scope:me needs the caller's own link to add
 * (their notes mark their own account's charts), while their notes stay theirs to list and remove without one.
 */
async function requireOwner(
	ctx: NoteActionContext,
	actor: Actor,
	input: NoteScopeInput,
	{ adding }: { adding: boolean },
): Promise<NoteOwner> {
	const scope = input.scope ?? 'me';
	if (scope === 'server') {
		if (input.guildId === null) throw new UserFacingError('stats.serverScopeGuildOnly');
		requireManageServer(actor, 'note');
		await requireServerKey(ctx, input.guildId, 'note.needsServerKey');
		return { scope: 'server', guildId: input.guildId };
	}
	if (scope !== 'me') throw new UserFacingError('stats.invalidScope');
	if (adding && !(await ctx.links.getUserLink(actor.userId))) throw new UserFacingError('note.needsLink');
	return { scope: 'me', userId: actor.userId };
}

async function auditNote(
	ctx: NoteActionContext,
	actor: Actor,
	guildId: string,
	input: NoteScopeInput,
	key: 'note.audit.added' | 'note.audit.removed',
	note: Note,
	now: number,
): Promise<void> {
	const guildLocale = input.guildLocale ?? null;
	// The text is a member's words: no markdown of theirs and no mention reaches the audit channel.
	const text = escapeMarkdown(note.text).replaceAll('@', '@\u200b');
	const vars = { actor: auditActor(actor), date: note.date, text, when: auditTime(now) };
	await postAudit(ctx, guildId, { key, vars }, { guildLocale });
}
