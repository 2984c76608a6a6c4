import type { Config } from '../../config.js';
import type { Translate } from '../../i18n/index.js';
import { discordTextToHtml, html, type SafeHtml } from '../html.js';

/**
 * `GET /privacy`: what the bot stores, for how long, where, and how to see, export and delete it. Public, so that
 * its address can be the application's Privacy Policy URL in Discord's Developer Portal.
 */
export function privacyPageBody(
	t: Translate,
	config: Pick<Config, 'historyDays' | 'serverDataDays' | 'privacyContact'>,
): SafeHtml {
	const section = (title: string, text: string) =>
		html`<section>
			<h2>${title}</h2>
			<p>${discordTextToHtml(text)}</p>
		</section>`;
	const contact = config.privacyContact
		? t('web.privacy.contact', { contact: config.privacyContact })
		: t('web.privacy.noContact');
	return html`<h1>${t('web.privacy.title')}</h1>
		<p>${t('web.privacy.intro')}</p>
		${section(t('web.privacy.whatTitle'), t('web.privacy.what'))}
		${section(t('web.privacy.howLongTitle'), t('web.privacy.howLong', { historyDays: config.historyDays, serverDataDays: config.serverDataDays }))}
		${section(t('web.privacy.whereTitle'), t('web.privacy.where'))}
		${section(t('web.privacy.howTitle'), t('web.privacy.how'))}
		<p class="contact">${contact}</p>`;
}

/**
 * `/me`'s data section: what the bot holds about the member by kind (`/privacy show`'s words), the export as a file,
 * and deletion behind a confirmation box.
 */
export function myDataSection(t: Translate, langQuery: string, held: string): SafeHtml {
	return html`<section id="my-data" class="manage">
		<h2>${t('web.privacy.title')}</h2>
		<p class="held">${discordTextToHtml(held)}</p>
		<p><a class="button" href="/me/data.json" download>${t('web.privacy.downloadData')}</a></p>
		<form method="post" action="/me/delete${langQuery}">
			<h3>${t('web.privacy.deleteTitle')}</h3>
			<p>${t('web.privacy.deleteNote')}</p>
			<p class="field">
				<label><input type="checkbox" name="confirm" value="yes" required /> ${t('web.privacy.confirmLabel')}</label>
			</p>
			<p><button type="submit" class="danger">${t('web.privacy.deleteButton')}</button></p>
		</form>
	</section>`;
}
