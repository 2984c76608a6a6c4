import { renderMessage } from '../../i18n/index.js';
import { embedSnippets } from '../public/embed-snippets.js';
import { html, type SafeHtml } from '../html.js';
import { boardsManageSection } from './manage-boards.js';
import { goalsManageSection } from './manage-goals.js';
import { notesSection } from './manage-notes.js';
import { utcDateOf } from '../../history/utc-days.js';
import { action, type ManagePageData } from './manage-page-data.js';
import { keySection, settingsSection, type KeySectionData } from './manage-settings.js';
import { alertsSection, reportsSection, statChannelsSection } from './manage-watch.js';
import { webhooksManageSection } from './manage-webhooks.js';

/** The manage page (docs/web-dashboard.md): one section per admin command. */
export function manageBody(page: ManagePageData): SafeHtml {
	const { t } = page;
	const serverPath = `/servers/${page.guildId}`;
	return html`<h1>${t('web.manage.heading', { server: page.guildName })}</h1>
		${page.done ? html`<p class="outcome" role="status">${renderMessage(t, page.done)}</p>` : ''}
		<p>${t('web.manage.intro')}</p>
		${page.key ? html`<p class="to-server"><a href="${serverPath}${page.langQuery}">${t('web.manage.toServerPage')}</a></p>` : ''}
		<nav class="manage-sections" aria-label="${t('web.manage.sections')}">
			<a href="#key">${t('web.manage.keyTitle')}</a> <a href="#settings">${t('web.manage.settingsTitle')}</a>
			<a href="#reports">${t('web.manage.reportsTitle')}</a>
			<a href="#stat-channels">${t('web.manage.statChannelsTitle')}</a>
			<a href="#alerts">${t('web.manage.alertsTitle')}</a> <a href="#goals">${t('web.goals.title')}</a>
			<a href="#notes">${t('web.notes.title')}</a>
			<a href="#boards">${t('web.manage.boardsTitle')}</a>
			<a href="#webhooks">${t('webhook.web.heading')}</a>
			<a href="#public">${t('web.publicTitle')}</a>
		</nav>
		${keySection(page)} ${settingsSection(page)} ${reportsSection(page)} ${statChannelsSection(page)}
		${alertsSection(page)}
		${goalsManageSection({
			t,
			locale: page.locale,
			action: action(page, 'goals'),
			goals: page.goals ?? [],
			figures: page.goalFigures ?? [],
		})}
		${notesSection({
			t,
			action: action(page, 'notes'),
			scope: 'server',
			notes: page.notes ?? [],
			today: utcDateOf(page.now),
		})}
		${page.boards ? boardsManageSection({ ...page, action: action(page, 'boards'), boards: page.boards }) : ''}
		${page.webhooks ? webhooksManageSection({ ...page, action: action(page, 'webhooks'), webhooks: page.webhooks }) : ''}
		${publicSection(page)}`;
}

/**
 * The manage page of a server without a key: a 404 as its server page is, holding only what gives it a key (the
 * rest needs one), and the outcome of the form that removed it.
 */
export function manageKeylessBody(page: KeySectionData & Pick<ManagePageData, 'guildName' | 'done'>): SafeHtml {
	const { t } = page;
	return html`<h1>${t('web.manage.heading', { server: page.guildName })}</h1>
		${page.done ? html`<p class="outcome" role="status">${renderMessage(t, page.done)}</p>` : ''} ${keySection(page)}`;
}

function publicSection(page: ManagePageData): SafeHtml {
	const { t } = page;
	const button = (enabled: 'on' | 'off', label: string, danger = false) =>
		html`<form method="post" action="${action(page, 'public')}" class="inline">
			<input type="hidden" name="enabled" value="${enabled}" />
			<input type="hidden" name="return" value="manage" />
			<button type="submit" ${danger ? html` class="danger"` : ''}>${label}</button>
		</form>`;
	return html`<section id="public" class="manage">
		<h2>${t('web.publicTitle')}</h2>
		${
			page.publicUrl
				? html`<p>${t('web.publicOn')}</p>
						<p><a id="public-link" href="${page.publicUrl}">${page.publicUrl}</a></p>
						<div class="actions">
							${button('on', t('web.publicRenew'))} ${button('off', t('web.publicDisable'), true)}
						</div>
						${embedSnippets(t, page.publicUrl, { headingLevel: 3 })}`
				: html`<p>${t('web.publicOff')}</p>
						<div class="actions">${button('on', t('web.publicEnable'))}</div>`
		}
	</section>`;
}
