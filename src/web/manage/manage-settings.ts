// The manage page's Server key and Access and defaults sections: `/server-key` and `/settings` as forms.
import { LANGUAGE_NAMES, LOCALES, type MessageKey } from '../../i18n/index.js';
import { STATS_DAYS, STATS_METRICS } from '../../stats-options.js';
import { channelChoices, roleChoices, select } from './form-controls.js';
import { discordTextToHtml, html, type SafeHtml } from '../html.js';
import { action, text, type FormTarget, type ManagePageData, type PageWording } from './manage-page-data.js';

/** What the Server key section shows: the key's facts, and the forms that set and remove it. */
export type KeySectionData = PageWording & FormTarget & Pick<ManagePageData, 'key' | 'linkerName'>;

/** The reset form's checkbox, `required`: a browser sends no reset before it is ticked. */
const RESET_CONFIRM = { name: 'confirm', value: 'yes' } as const;

export function keySection(page: KeySectionData): SafeHtml {
	const { t, key } = page;
	const status = key
		? html`<dl class="facts">
					<dt>${t('web.manage.keyAccount')}</dt>
					<dd>${key.accountName ?? '—'}</dd>
					<dt>${t('web.manage.keySince')}</dt>
					<dd>${discordTextToHtml(`<t:${Math.floor(key.linkedAt / 1000)}:f>`, { locale: page.locale })}</dd>
					<dt>${t('web.manage.keyBy')}</dt>
					<dd>${key.linkedBy === null ? '—' : (page.linkerName ?? key.linkedBy)}</dd>
					<dt>${t('web.manage.keyHint')}</dt>
					<dd><code>…${key.keyHint}</code></dd>
				</dl>
				${key.readable ? '' : html`<p class="warning">${text(page, 'errors.serverRelinkNeeded')}</p>`}
				${key.verified ? '' : html`<p class="note">${t('serverKey.notVerifiedNote')}</p>`}`
		: html`<p>${t('web.manage.keyNone')}</p>`;
	return html`<section id="key" class="manage">
		<h2>${t('web.manage.keyTitle')}</h2>
		${status}
		<form method="post" action="${action(page, 'key')}">
			<p class="field">
				<label for="key-input">${t('web.manage.keyLabel')}</label>
				<input id="key-input" type="password" name="key" autocomplete="off" required spellcheck="false" />
			</p>
			<p class="note">${t('web.manage.keyNote')}</p>
			<p><button type="submit">${t('web.manage.keySet')}</button></p>
		</form>
		${
			key
				? html`<form method="post" action="${action(page, 'key')}">
						<input type="hidden" name="action" value="remove" />
						<p><button type="submit" class="danger">${t('web.manage.keyRemove')}</button></p>
					</form>`
				: ''
		}
	</section>`;
}

/**
 * Each `/settings set` option's description labels its field: the words members know from Discord. Where that
 * description names the command's own syntax (`scope:server`, the option `metric`, left in English in every
 * language), the page says it in its own words, and names the server page the setting governs too.
 */
const SETTING_LABELS = {
	serverStatsRole: 'web.manage.serverStatsRoleLabel',
	shareRole: 'commands.settings.subcommands.set.options.shareRole.description',
	shareChannel: 'commands.settings.subcommands.set.options.shareChannel.description',
	defaultDays: 'web.manage.defaultDaysLabel',
	defaultMetric: 'web.manage.defaultMetricLabel',
	language: 'commands.settings.subcommands.set.options.language.description',
	auditChannel: 'commands.settings.subcommands.set.options.auditChannel.description',
} as const satisfies Record<string, MessageKey>;

export function settingsSection(page: ManagePageData): SafeHtml {
	const { t, settings } = page;
	const label = (option: keyof typeof SETTING_LABELS) => t(SETTING_LABELS[option]);
	const posts = channelChoices(page.channels, 'posts');
	return html`<section id="settings" class="manage">
		<h2>${t('web.manage.settingsTitle')}</h2>
		<form method="post" action="${action(page, 'settings')}">
			${select(
				'set-server-stats-role',
				'server-stats-role',
				label('serverStatsRole'),
				roleChoices(page.roles, t('settings.value.everyone')),
				settings.serverStatsRoleId ?? '',
			)}
			${select(
				'set-share-role',
				'share-role',
				label('shareRole'),
				roleChoices(page.roles, t('settings.value.everyone')),
				settings.shareRoleId ?? '',
			)}
			${select(
				'set-share-channel',
				'share-channel',
				label('shareChannel'),
				[{ value: '', label: t('settings.value.anyChannel') }, ...posts],
				settings.shareChannelId ?? '',
			)}
			${select(
				'set-default-days',
				'default-days',
				label('defaultDays'),
				STATS_DAYS.map((days) => ({ value: String(days), label: t(`choices.days.${days}`) })),
				String(settings.defaultDays),
			)}
			${select(
				'set-default-metric',
				'default-metric',
				label('defaultMetric'),
				STATS_METRICS.map((metric) => ({ value: metric, label: t(`choices.metric.${metric}`) })),
				settings.defaultMetric,
			)}
			${select(
				'set-language',
				'language',
				label('language'),
				[
					{ value: 'auto', label: t('choices.language.auto') },
					...LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale] })),
				],
				settings.language,
			)}
			${select(
				'set-audit-channel',
				'audit-channel',
				label('auditChannel'),
				[{ value: '', label: t('settings.value.auditOff') }, ...posts],
				settings.auditChannelId ?? '',
			)}
			<p><button type="submit">${t('web.manage.settingsSave')}</button></p>
		</form>
		<form method="post" action="${action(page, 'settings')}" class="reset">
			<input type="hidden" name="action" value="reset" />
			<p class="note" id="reset-note">${t('web.manage.resetNote')}</p>
			<p class="check">
				<input
					id="reset-confirm"
					type="checkbox"
					name="${RESET_CONFIRM.name}"
					value="${RESET_CONFIRM.value}"
					required
				/>
				<label for="reset-confirm">${t('web.manage.resetConfirm')}</label>
			</p>
			<p>
				<button type="submit" class="danger" aria-describedby="reset-note">${t('web.manage.settingsReset')}</button>
			</p>
		</form>
	</section>`;
}
