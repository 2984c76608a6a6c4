import type { Translate } from '../../i18n/index.js';
import { html, type SafeHtml } from '../html.js';

export function loggedOutHome(t: Translate): SafeHtml {
	return html`<h1>${t('web.siteName')}</h1>
		<p>${t('web.intro')}</p>
		<p><a class="button" href="/login">${t('web.login')}</a></p>`;
}

interface ServerLink {
	id: string;
	name: string;
}

/**
 * The start page of a member: their account, one link per server whose page they may open, and below them one
 * "Set up" link per server they manage where the bot is but no key is linked yet (to its manage page only: it has
 * no server page before a key).
 */
export function loggedInHome(
	t: Translate,
	servers: readonly ServerLink[],
	lang: string,
	toSetUp: readonly ServerLink[] = [],
): SafeHtml {
	const list =
		servers.length === 0
			? html`<p>${t('web.noServers')}</p>`
			: html`<ul class="servers">
					${servers.map((server) => html`<li><a href="/servers/${server.id}${lang}">${server.name}</a></li>`)}
				</ul>`;
	return html`<h1>${t('web.siteName')}</h1>
		<p><a class="button" href="/me${lang}">${t('web.myAccount')}</a></p>
		<h2>${t('web.servers')}</h2>
		${list}${setUpList(t, toSetUp, lang)}`;
}

function setUpList(t: Translate, servers: readonly ServerLink[], lang: string): SafeHtml | '' {
	if (servers.length === 0) return '';
	return html`<h2>${t('web.setUpTitle')}</h2>
		<p>${t('web.setUpNote')}</p>
		<ul class="servers setup">
			${servers.map(
				(server) =>
					html`<li><a href="/servers/${server.id}/manage${lang}">${t('web.setUp', { server: server.name })}</a></li>`,
			)}
		</ul>`;
}
