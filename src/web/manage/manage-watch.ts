// The manage page's Reports, Stat channels and Alerts sections: each list with its state, an add form with the
// slash command's options, and a remove button per row.
import type { MessageKey } from '../../i18n/index.js';
import { describePause, describeSchedule } from '../../reports/describe-report.js';
import { DEFAULT_EVERY, DEFAULT_HOUR, DEFAULT_TIMEZONE } from '../../reports/report-actions.js';
import { REPORT_FREQUENCIES, WEEKDAYS, type Weekday } from '../../reports/report-record.js';
import { describeAlertState, describeFigure, describeRule, describeWatchPause } from '../../watch/describe-watch.js';
import { ALERT_KINDS, STAT_FIGURES } from '../../watch/watch-record.js';
import { channelSelect, select } from './form-controls.js';
import { html, type SafeHtml } from '../html.js';
import { listOrEmpty, type ListRow } from './manage-lists.js';
import { action, channelName, discordText, listed, text, type ManagePageData } from './manage-page-data.js';

/** Hours a report may post at, as `/report add hour:` takes them. */
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** `/report add`'s option descriptions label the add form's fields. */
const REPORT_LABELS = {
	channel: 'commands.report.subcommands.add.options.channel.description',
	every: 'commands.report.subcommands.add.options.every.description',
	hour: 'commands.report.subcommands.add.options.hour.description',
	timezone: 'commands.report.subcommands.add.options.timezone.description',
	weekday: 'commands.report.subcommands.add.options.weekday.description',
} as const satisfies Record<string, MessageKey>;

export function reportsSection(page: ManagePageData): SafeHtml {
	const { t, reports } = page;
	const label = (option: keyof typeof REPORT_LABELS) => t(REPORT_LABELS[option]);
	// One line, as the page has always had it: formatted, the tag would break over several.
	// prettier-ignore
	const timezoneInput = html`<input id="report-timezone" name="timezone" value="${DEFAULT_TIMEZONE}" maxlength="64" autocomplete="off" spellcheck="false" />`;
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
				DEFAULT_EVERY,
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
				${timezoneInput}
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

export function statChannelsSection(page: ManagePageData): SafeHtml {
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

export function alertsSection(page: ManagePageData): SafeHtml {
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
