import { LANGUAGE_NAMES, LOCALES, type Locale, type MessageKey, type Translate } from '../i18n/index.js';
import type { LinkStatus } from '../links/link-model.js';
import { describePause, describeSchedule } from '../reports/describe-pause.js';
import type { ReportListing } from '../reports/report-actions.js';
import { REPORT_FREQUENCIES, WEEKDAYS, type Weekday } from '../reports/report-record.js';
import type { ServerSettings } from '../settings/settings-record.js';
import { STATS_DAYS, STATS_METRICS } from '../stats-options.js';
import { describeAlertState, describeFigure, describeRule, describeWatchPause } from '../watch/describe.js';
import type { WatchList } from '../watch/watch-actions.js';
import { ALERT_KINDS, STAT_FIGURES, type AlertRecord, type StatChannelRecord } from '../watch/watch-record.js';
import type { ChannelFacts, RoleFacts } from './bot-guilds.js';
import { embedSnippets } from './embed-snippets.js';
import { channelChoices, channelSelect, roleChoices, select } from './form-controls.js';
import { discordTextToHtml, html, type MentionNames, type SafeHtml } from './html.js';
import { listOrEmpty, type ListedThing, type ListRow } from './manage-lists.js';
import { goalsManageSection } from './manage-goals.js';
import { boardsManageSection } from './manage-boards.js';
import type { BoardRecord } from '../boards/board-record.js';
import type { GoalFigures } from '../goals/goal-figures.js';
import type { Goal } from '../goals/goal-record.js';

/** Everything the manage page shows, read when it loads. */
export interface ManagePageData {
	t: Translate;
	locale: Locale;
	now: number;
	guildId: string;
	guildName: string;
	/** `?lang=xx` when the member chose a language in the URL, kept by every form and link; else ''. */
	langQuery: string;
	/** The outcome of the form sent just before, as a message. */
	done: MessageKey | null;
	key: LinkStatus | null;
	/** The name of the member who linked the key, when the bot can still read them. */
	linkerName: string | null;
	settings: ServerSettings;
	/** The roles a setting may name: never @everyone (it has the server's id), nor a bot's own. */
	roles: RoleFacts[];
	channels: ChannelFacts[];
	reports: ReportListing;
	statChannels: WatchList<StatChannelRecord>;
	alerts: WatchList<AlertRecord>;
	/** The server's goals (src/goals). */
	goals?: readonly Goal[];
	goalFigures?: readonly GoalFigures[];
	/** The server's boards (src/boards). */
	boards?: WatchList<BoardRecord>;
	/** The public page's address while it is on. */
	publicUrl: string | null;
	names: MentionNames;
}

/** The reset form's checkbox, `required`: a browser sends no reset before it is ticked. */
const RESET_CONFIRM = { name: 'confirm', value: 'yes' } as const;

/** Hours a report may post at, as `/report add hour:` takes them. */
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const DEFAULT_HOUR = 9;

/** The manage page (docs/web-dashboard.md): one section per admin command. */
export function manageBody(page: ManagePageData): SafeHtml {
	const { t } = page;
	const serverPath = `/servers/${page.guildId}`;
	return html`<h1>${t('web.manage.heading', { server: page.guildName })}</h1>
		${page.done ? html`<p class="outcome" role="status">${t(page.done)}</p>` : ''}
		<p>${t('web.manage.intro')}</p>
		${page.key ? html`<p class="to-server"><a href="${serverPath}${page.langQuery}">${t('web.manage.toServerPage')}</a></p>` : ''}
		<nav class="manage-sections" aria-label="${t('web.manage.sections')}">
			<a href="#key">${t('web.manage.keyTitle')}</a> <a href="#settings">${t('web.manage.settingsTitle')}</a>
			<a href="#reports">${t('web.manage.reportsTitle')}</a>
			<a href="#stat-channels">${t('web.manage.statChannelsTitle')}</a>
			<a href="#alerts">${t('web.manage.alertsTitle')}</a> <a href="#goals">${t('web.goals.title')}</a>
			<a href="#boards">${t('web.manage.boardsTitle')}</a>
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
		${page.boards ? boardsManageSection({ ...page, action: action(page, 'boards'), boards: page.boards }) : ''}
		${publicSection(page)}`;
}

function action(page: ManagePageData, what: string): string {
	return `/servers/${page.guildId}/${what}${page.langQuery}`;
}

function listed(page: ManagePageData, name: string): ListedThing {
	return { name, action: action(page, name) };
}

/** A Discord-flavoured catalogue text (mentions, `code`, timestamps) as the page shows it. */
function text(page: ManagePageData, key: MessageKey, vars?: Record<string, unknown>): SafeHtml {
	return discordText(page, page.t(key, vars));
}

/** Words already translated, in Discord's markup, as the page shows them. */
function discordText(page: ManagePageData, words: string): SafeHtml {
	return discordTextToHtml(words, { names: page.names, locale: page.locale, now: page.now });
}

function keySection(page: ManagePageData): SafeHtml {
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

function settingsSection(page: ManagePageData): SafeHtml {
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

/** A channel by the name the server gives it now. */
function channelName(page: ManagePageData, channelId: string): SafeHtml {
	return text(page, 'settings.value.channel', { channelId });
}

/** `/report add`'s option descriptions label the add form's fields. */
const REPORT_LABELS = {
	channel: 'commands.report.subcommands.add.options.channel.description',
	every: 'commands.report.subcommands.add.options.every.description',
	hour: 'commands.report.subcommands.add.options.hour.description',
	timezone: 'commands.report.subcommands.add.options.timezone.description',
	weekday: 'commands.report.subcommands.add.options.weekday.description',
} as const satisfies Record<string, MessageKey>;

function reportsSection(page: ManagePageData): SafeHtml {
	const { t, reports } = page;
	const label = (option: keyof typeof REPORT_LABELS) => t(REPORT_LABELS[option]);
	const rows = reports.reports.map(({ record, nextDue, pause }): ListRow => {
		const state = pause
			? text(page, 'web.manage.paused', { reason: describePause(t, pause) })
			: text(page, 'web.manage.reportNext', {
					time: nextDue === null ? '—' : `<t:${Math.floor(nextDue / 1000)}:f>`,
				});
		return {
			id: record.channelId,
			field: 'channel',
			value: record.channelId,
			title: { words: channelName(page, record.channelId) },
			details: [{ words: html`${describeSchedule(t, record)}`, sentence: true }, { words: state }],
		};
	});
	return html`<section id="reports" class="manage">
		<h2>${t('web.manage.reportsTitle')}</h2>
		${listOrEmpty(
			t,
			listed(page, 'reports'),
			text(page, 'report.listHeader', { count: reports.counted, max: reports.max }),
			'web.manage.reportsEmpty',
			rows,
		)}
		<form method="post" action="${action(page, 'reports')}">
			<h3>${t('web.manage.reportAdd')}</h3>
			${channelSelect(t, page.channels, { id: 'report-channel', label: label('channel'), use: 'posts' })}
			${select(
				'report-every',
				'every',
				label('every'),
				REPORT_FREQUENCIES.map((every) => ({ value: every, label: t(`choices.every.${every}`) })),
				'daily',
			)}
			${select(
				'report-hour',
				'hour',
				label('hour'),
				HOURS.map((hour) => ({ value: String(hour), label: `${String(hour).padStart(2, '0')}:00` })),
				String(DEFAULT_HOUR),
			)}
			<p class="field">
				<label for="report-timezone">${label('timezone')}</label>
				<input id="report-timezone" name="timezone" value="UTC" maxlength="64" autocomplete="off" spellcheck="false" />
			</p>
			${select(
				'report-weekday',
				'weekday',
				label('weekday'),
				[
					{ value: '', label: '—' },
					...mondayFirst().map((day) => ({ value: day, label: t(`choices.weekday.${day}`) })),
				],
				'',
			)}
			<p><button type="submit">${t('web.manage.reportAddButton')}</button></p>
		</form>
	</section>`;
}

/** The week as the choices of `/report add weekday:` list it, Monday first. */
function mondayFirst(): Weekday[] {
	return [...WEEKDAYS.slice(1), ...WEEKDAYS.slice(0, 1)];
}

function statChannelsSection(page: ManagePageData): SafeHtml {
	const { t, statChannels } = page;
	const rows = statChannels.records.map((record): ListRow => ({
		id: record.channelId,
		field: 'channel',
		value: record.channelId,
		title: { words: html`${describeFigure(t, record.figure)}` },
		details: [
			{ words: channelName(page, record.channelId) },
			...(record.paused
				? [{ words: text(page, 'web.manage.paused', { reason: describeWatchPause(t, record.paused) }) }]
				: []),
		],
	}));
	return html`<section id="stat-channels" class="manage">
		<h2>${t('web.manage.statChannelsTitle')}</h2>
		${listOrEmpty(
			t,
			listed(page, 'stat-channels'),
			text(page, 'watch.statChannel.listHeader', {
				count: statChannels.records.length,
				max: statChannels.max,
				minutes: statChannels.everyMinutes,
			}),
			'web.manage.statChannelsEmpty',
			rows,
		)}
		<form method="post" action="${action(page, 'stat-channels')}">
			<h3>${t('web.manage.statChannelAdd')}</h3>
			${channelSelect(t, page.channels, {
				id: 'stat-channel',
				label: t('watch.commands.statchannel.addChannel'),
				use: 'statChannel',
			})}
			${select(
				'stat-figure',
				'figure',
				t('watch.commands.statchannel.addFigure'),
				STAT_FIGURES.map((figure) => ({ value: figure, label: describeFigure(t, figure) })),
				STAT_FIGURES[0],
			)}
			<p><button type="submit">${t('web.manage.statChannelAddButton')}</button></p>
		</form>
	</section>`;
}

function alertsSection(page: ManagePageData): SafeHtml {
	const { t, alerts } = page;
	// The rule first (what the alert watches for), then where it posts and how it stands; the id, which
	// `/alert remove` takes, last and labelled.
	const rows = alerts.records.map((record): ListRow => ({
		id: record.id,
		field: 'id',
		value: record.id,
		title: { words: html`${describeRule(t, page.locale, record)}`, sentence: true },
		details: [
			{
				words: html`${text(page, 'web.manage.alertChannel', { channelId: record.channelId })} ·
				${discordText(page, describeAlertState(t, record))}`,
			},
		],
		aside: text(page, 'web.manage.alertId', { id: record.id }),
	}));
	return html`<section id="alerts" class="manage">
		<h2>${t('web.manage.alertsTitle')}</h2>
		${listOrEmpty(
			t,
			listed(page, 'alerts'),
			text(page, 'watch.alert.listHeader', {
				count: alerts.records.length,
				max: alerts.max,
				minutes: alerts.everyMinutes,
			}),
			'web.manage.alertsEmpty',
			rows,
		)}
		<form method="post" action="${action(page, 'alerts')}">
			<h3>${t('web.manage.alertAdd')}</h3>
			${select(
				'alert-kind',
				'kind',
				t('watch.commands.alert.addKind'),
				ALERT_KINDS.map((kind) => ({ value: kind, label: t(`watch.kinds.${kind}`) })),
				ALERT_KINDS[0],
			)}
			${channelSelect(t, page.channels, {
				id: 'alert-channel',
				label: t('watch.commands.alert.addChannel'),
				use: 'posts',
			})}
			<p class="field">
				<label for="alert-threshold">${t('watch.commands.alert.addThreshold')}</label>
				<input id="alert-threshold" name="threshold" type="number" min="1" step="1" inputmode="numeric" />
			</p>
			<p><button type="submit">${t('web.manage.alertAddButton')}</button></p>
		</form>
	</section>`;
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
