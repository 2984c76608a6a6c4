// Notes for `npm run demo`: per language, the admin marks two days of the last week on the server's charts with
// /note add (in that language's words where the demo has them) and lists them with /note list; the /stats
// scope:server days:7 that follows draws both as lines. The dashboard's server gets the same two notes through the
// core action, so its pages draw and list them.
import type { DiscordSandbox, SandboxMessage } from '../../sandbox/index.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import type { Locale } from '../../src/i18n/index.js';
import { addNote } from '../../src/notes/note-actions.js';

/** What a member would type; English where the demo has no words of that language. */
const NOTE_TEXTS: Partial<Record<Locale, [string, string]>> = {
	ja: ['キャンペーンA開始', 'ニュースレター送信'],
};
const ENGLISH_TEXTS: [string, string] = ['Campaign A started', 'Newsletter sent'];

/** The two days marked: five and two days before the given day, both on a 7-day chart. */
export function demoNotes(locale: Locale, now: Date): { date: string; text: string }[] {
	const today = utcDateOf(now.getTime());
	const [first, second] = NOTE_TEXTS[locale] ?? ENGLISH_TEXTS;
	return [
		{ date: addDays(today, -5), text: first },
		{ date: addDays(today, -2), text: second },
	];
}

export interface NoteDemo {
	locale: Locale;
	now: Date;
	/** A member with Manage Server, and that permission as Discord sends it. */
	admin: string;
	manageServer: string;
	run: (options: Parameters<DiscordSandbox['dispatchCommand']>[0]) => Promise<SandboxMessage>;
	record: (title: string, command: string, message: SandboxMessage) => void;
}

/** /note add twice and /note list on the pass's server, once its key is linked. */
export async function playNoteFlow(demo: NoteDemo): Promise<void> {
	const asAdmin = { userId: demo.admin, permissions: demo.manageServer };
	for (const [index, note] of demoNotes(demo.locale, demo.now).entries()) {
		demo.record(
			`Note ${index + 1} on the server's charts`,
			`/note add date:${note.date} text:${note.text} scope:server`,
			await demo.run({
				name: 'note',
				subcommand: 'add',
				...asAdmin,
				options: [
					{ name: 'date', type: 3, value: note.date },
					{ name: 'text', type: 3, value: note.text },
					{ name: 'scope', type: 3, value: 'server' },
				],
			}),
		);
	}
	demo.record(
		"The server's notes",
		'/note list scope:server',
		await demo.run({
			name: 'note',
			subcommand: 'list',
			...asAdmin,
			options: [{ name: 'scope', type: 3, value: 'server' }],
		}),
	);
}

/** The same notes on the dashboard's server, added as the manage page would (the admin, from the dashboard). */
export async function addDashboardNotes(ctx: CoreContext, guildId: string, admin: string, now: Date): Promise<void> {
	for (const note of demoNotes('en-US', now)) {
		await addNote(
			ctx,
			{ userId: admin, canManageServer: true, roleIds: [], origin: 'dashboard' },
			{ scope: 'server', guildId, ...note },
		);
	}
}
