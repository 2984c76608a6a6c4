// The manage page's lists (reports, stat channels, alerts): each row's words, and a remove button in one place.
import type { MessageKey, Translate } from '../../i18n/index.js';
import { html, SafeHtml } from '../html.js';

/** What a list holds: `name` prefixes its rows' element ids, `action` is where its remove forms post. */
export interface ListedThing {
	name: string;
	action: string;
}

/** One row of a list: what it is first, then its details; `id` names the element the remove button refers to. */
export interface ListRow {
	id: string;
	/** The remove form's identifying field and its value. */
	field: string;
	value: string;
	title: RowLine;
	details: RowLine[];
	/** A quieter last line: what identifies the row for the slash command. */
	aside?: SafeHtml;
}

interface RowLine {
	words: SafeHtml;
	/**
	 * Catalogue words written to follow others in a Discord line (`no new sends for 24 hours`), standing alone
	 * here: the stylesheet shows their first letter as a capital, the text itself stays the catalogue's.
	 */
	sentence?: boolean;
}

/**
 * A row's lines, each a block of its own in the stylesheet: spans, as they sit in the span the button refers to,
 * with a space between them so its description reads as words.
 */
function rowWords(row: ListRow): SafeHtml {
	const line = (kind: string, { words, sentence }: RowLine) =>
		html`<span class="${kind}${sentence ? ' sentence' : ''}">${words}</span>`;
	const lines = [
		line('row-title', row.title),
		...row.details.map((detail) => line('row-detail', detail)),
		...(row.aside ? [line('row-aside', { words: row.aside })] : []),
	];
	return new SafeHtml(lines.map((each) => each.text).join(' '));
}

/**
 * A list of a server's reports, stat channels or alerts: each row's words in one column, its remove button in
 * another, so every button sits in the same place whatever the words' length.
 */
function itemList(t: Translate, what: ListedThing, rows: ListRow[]): SafeHtml {
	return html`<ul class="manage-list">
		${rows.map(
			(row) =>
				html`<li>
					<span id="${what.name}-${row.id}">${rowWords(row)}</span>
					<form method="post" action="${what.action}" class="inline">
						<input type="hidden" name="action" value="remove" />
						<input type="hidden" name="${row.field}" value="${row.value}" />
						<button type="submit" class="danger" aria-describedby="${what.name}-${row.id}">
							${t('web.manage.remove')}
						</button>
					</form>
				</li>`,
		)}
	</ul>`;
}

/** A list's header line and its rows, or the page's own words when it is empty: the add form follows below. */
export function listOrEmpty(t: Translate, what: ListedThing, header: SafeHtml, empty: MessageKey, rows: ListRow[]) {
	if (rows.length === 0) return html`<p>${t(empty)}</p>`;
	return html`<p>${header}</p>
		${itemList(t, what, rows)}`;
}
