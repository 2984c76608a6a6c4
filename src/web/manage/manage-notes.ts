// The Notes section: the manage page's for the server's notes, /me's for the member's. A list with a remove button
// per note and a form with `/note add`'s options; both post to the same actions as the slash command.
import type { Translate } from '../../i18n/index.js';
import { FIRST_NOTE_DATE, MAX_NOTE_LENGTH, MAX_NOTES_PER_SCOPE, type Note } from '../../notes/note-record.js';
import { html, type SafeHtml } from '../html.js';

export interface NotesSectionData {
	t: Translate;
	/** Where the section's forms post, with the page's `?lang=`. */
	action: string;
	scope: 'me' | 'server';
	notes: readonly Note[];
	/** The UTC day today: the latest a note may mark (the date input's `max`). */
	today: string;
}

export function notesSection(page: NotesSectionData): SafeHtml {
	const { t } = page;
	const header = page.scope === 'server' ? 'note.listHeaderServer' : 'note.listHeaderMe';
	return html`<section id="notes" class="manage">
		<h2>${t('web.notes.title')}</h2>
		<p>${t(header, { count: page.notes.length, max: MAX_NOTES_PER_SCOPE }).replaceAll('**', '')}</p>
		<p>${t('web.notes.intro', { max: MAX_NOTES_PER_SCOPE })}</p>
		${
			page.notes.length === 0
				? html`<p class="empty">${t('web.notes.none')}</p>`
				: html`<ul class="manage-list">
						${page.notes.map(
							(note) =>
								// The text is a member's words: escaped as every value (html``), never markup.
								html`<li>
									<span id="note-${note.id}"
										><time class="row-title" datetime="${note.date}">${note.date}</time>
										<span class="row-detail">${note.text}</span></span
									>
									<form method="post" action="${page.action}" class="inline">
										<input type="hidden" name="action" value="remove" />
										<input type="hidden" name="note" value="${note.id}" />
										<button type="submit" class="danger" aria-describedby="note-${note.id}">
											${t('web.notes.remove')}
										</button>
									</form>
								</li>`,
						)}
					</ul>`
		}
		<form method="post" action="${page.action}">
			<h3>${t('web.notes.add')}</h3>
			<p class="field">
				<label for="note-date">${t('note.commands.date')}</label>
				<input id="note-date" name="date" type="date" min="${FIRST_NOTE_DATE}" max="${page.today}" required />
			</p>
			<p class="field">
				<label for="note-text">${t('note.commands.text')}</label>
				<input id="note-text" name="text" type="text" minlength="1" maxlength="${MAX_NOTE_LENGTH}" required />
			</p>
			<p><button type="submit">${t('web.notes.add')}</button></p>
		</form>
	</section>`;
}
