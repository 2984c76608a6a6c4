// A note: a few words on one UTC day ("campaign A started"), drawn on its owner's charts. A member's notes mark their
// own charts, a server's the server's; one stored entry per owner holds all of its notes, so a chart reads them with
// one get.
import { MEMBER_NOTES_PREFIX, SERVER_NOTES_PREFIX } from '../core/record-kinds.js';

export const MAX_NOTES_PER_SCOPE = 50;
/** Characters (code points) a note may hold; the chart shows at most NOTE_CHART_LENGTH of them. */
export const MAX_NOTE_LENGTH = 60;
export const NOTE_CHART_LENGTH = 24;
/** The first day a note may mark: the stats service has nothing older. */
export const FIRST_NOTE_DATE = '2000-01-01';
export const NOTES_SCHEMA_VERSION = 1;

/** Whose notes: the member's own or the server's. Never a key. */
export type NoteOwner = { scope: 'me'; userId: string } | { scope: 'server'; guildId: string };

export interface Note {
	/** Short random id: what `/note remove` and the dashboard's remove button name. */
	id: string;
	/** The UTC day marked, `YYYY-MM-DD`. */
	date: string;
	text: string;
	/** Epoch ms. */
	addedAt: number;
}

/** What is stored under notesKey(owner): the owner's notes, by day then when they were added. */
export interface NotesRecord {
	v: typeof NOTES_SCHEMA_VERSION;
	notes: Note[];
}

export const notesKey = (owner: NoteOwner): string =>
	owner.scope === 'server' ? `${SERVER_NOTES_PREFIX}${owner.guildId}` : `${MEMBER_NOTES_PREFIX}${owner.userId}`;

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `date` is written `YYYY-MM-DD` and names a day of the calendar (2026-02-30 does not). */
export function isCalendarDay(date: string): boolean {
	const match = DATE_SHAPE.exec(date);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const at = new Date(Date.UTC(year, month - 1, day));
	return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

/** Oldest day first; notes of one day in the order they were added. */
export function sortNotes(notes: readonly Note[]): Note[] {
	return [...notes].sort((a, b) => (a.date === b.date ? a.addedAt - b.addedAt : a.date < b.date ? -1 : 1));
}

/** A stored value back into notes; the notes that parse (anything else is dropped). */
export function parseNotesRecord(raw: unknown): Note[] {
	if (typeof raw !== 'object' || raw === null) return [];
	const record = raw as Partial<NotesRecord>;
	if (record.v !== NOTES_SCHEMA_VERSION || !Array.isArray(record.notes)) return [];
	return sortNotes(
		record.notes.filter(
			(note: Partial<Note>) =>
				typeof note.id === 'string' &&
				typeof note.date === 'string' &&
				isCalendarDay(note.date) &&
				typeof note.text === 'string' &&
				note.text !== '' &&
				typeof note.addedAt === 'number',
		),
	);
}
