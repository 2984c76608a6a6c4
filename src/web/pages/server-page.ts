import type { Translate } from '../../i18n/index.js';
import { html, type SafeHtml } from '../html.js';

/** The server page's public-link box, for members with Manage Server only. */
export function publicLinkForm(t: Translate, guildId: string, publicUrl: string | null): SafeHtml {
	const action = `/servers/${guildId}/public`;
	const button = (enabled: 'on' | 'off', label: string) =>
		html`<form method="post" action="${action}" class="inline">
			<input type="hidden" name="enabled" value="${enabled}" /><button type="submit">${label}</button>
		</form>`;
	return html`<section class="public">
		<h2>${t('web.publicTitle')}</h2>
		${
			publicUrl
				? html`<p>${t('web.publicOn')}</p>
						<p><a id="public-link" href="${publicUrl}">${publicUrl}</a></p>
						<p>${button('on', t('web.publicRenew'))} ${button('off', t('web.publicDisable'))}</p>`
				: html`<p>${t('web.publicOff')}</p>
						<p>${button('on', t('web.publicEnable'))}</p>`
		}
	</section>`;
}

/** The server page's way to the manage page, for members with Manage Server only. */
export function manageLink(t: Translate, href: string): SafeHtml {
	return html`<p class="manage-link"><a class="button" href="${href}">${t('web.manage.open')}</a></p>`;
}
