import type { Translate } from '../../i18n/index.js';
import { html, type SafeHtml } from '../html.js';

/**
 * `/me`'s own key: a form to link one (or replace the linked one), validated as `/link` validates it, and a
 * button to unlink. The key field is never filled in: a key is sent once and never shown again.
 */
export function accountKeyForms(t: Translate, linked: boolean, langQuery: string): SafeHtml {
	return html`<section id="own-key" class="manage">
		<h2>${t('web.me.keyTitle')}</h2>
		<p>${t(linked ? 'web.me.replaceNote' : 'web.me.linkNote')}</p>
		<form method="post" action="/me/key${langQuery}">
			<p class="field">
				<label for="own-key-input">${t('web.me.keyLabel')}</label>
				<input id="own-key-input" type="password" name="key" autocomplete="off" required spellcheck="false" />
			</p>
			<p><button type="submit">${t('web.me.link')}</button></p>
		</form>
		${
			linked
				? html`<form method="post" action="/me/unlink${langQuery}">
						<p><button type="submit" class="danger">${t('web.me.unlink')}</button></p>
					</form>`
				: ''
		}
	</section>`;
}

/** The line a form's outcome shows at the top of the page it went back to. */
export function outcomeLine(text: string | null): SafeHtml {
	return text === null ? html`` : html`<p class="outcome" role="status">${text}</p>`;
}
