import type { Translate } from '../../i18n/index.js';
import { html, type SafeHtml } from '../html.js';

export function loggedOutHome(t: Translate): SafeHtml {
	return html`<h1>${t('web.siteName')}</h1>
		<p>${t('web.intro')}</p>
		<p><a class="button" href="/login">${t('web.login')}</a></p>`;
}

/** The start page of a member: their account, and one link per server whose page they may open. */
export function loggedInHome(t: Translate, servers: readonly { id: string; name: string }[], lang: string): SafeHtml {
	const list =
		servers.length === 0
			? html`<p>${t('web.noServers')}</p>`
			: html`<ul class="servers">
					${servers.map((server) => html`<li><a href="/servers/${server.id}${lang}">${server.name}</a></li>`)}
				</ul>`;
	return html`<h1>${t('web.siteName')}</h1>
		<p><a class="button" href="/me${lang}">${t('web.myAccount')}</a></p>
		<h2>${t('web.servers')}</h2>
		${list}`;
}
