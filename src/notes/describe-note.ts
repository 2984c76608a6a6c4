// A note in words: the lines of /note list, the autocomplete's choices, the dashboard's lists.
import { truncate } from '../render/format.js';
import type { Note } from './note-record.js';

/** Discord's limit on an autocomplete choice's name. */
const MAX_CHOICE_NAME = 100;

/** `2026-11-03 — campaign A started`: the day as written (UTC, the form it is typed in) and the text. */
export function describeNote(note: Pick<Note, 'date' | 'text'>): string {
	return `${note.date} — ${note.text}`;
}

/** The autocomplete's choices: the notes whose day or text holds what is typed, newest day first. */
export function noteChoices(notes: readonly Note[], typed: string): { name: string; value: string }[] {
	const wanted = typed.trim().toLocaleLowerCase();
	return [...notes]
		.reverse()
		.filter((note) => wanted === '' || describeNote(note).toLocaleLowerCase().includes(wanted))
		.slice(0, 25)
		.map((note) => ({ name: truncate(describeNote(note), MAX_CHOICE_NAME), value: note.id }));
}
