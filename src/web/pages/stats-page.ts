import type { PeriodComparison } from '../../history/compare.js';
import { translator, type Locale, type Translate } from '../../i18n/index.js';
import { changeText, failureShare, joinsPer100Sends } from '../../render/embed.js';
import {
	formatCount,
	formatDecimal,
	formatPercent,
	formatUtcDateRange,
	dateTimeFormat,
	MISSING,
	numberFormat,
} from '../../render/format.js';
import { STATS_DAYS, STATS_METRICS, type StatsDays, type StatsMetric } from '../../stats-options.js';
import { escapeHtml, html, jsonForScript, SafeHtml } from '../html.js';
import { staticUrl } from '../static-files.js';
import { goalsSection } from './goals-section.js';
import type { DashboardStats } from './stats-view.js';

export interface StatsPageOptions {
	locale: Locale;
	heading: string;
	/** Path of the page without a query, e.g. `/servers/123`; the days and metric links point here. */
	path: string;
	/** `?lang=` kept in the links when the member chose one. */
	lang: string | null;
	/** The CSV link; null on public pages. */
	exportPath: string | null;
	/** Extra HTML after the figures (the public-link form for admins). */
	extra?: SafeHtml;
	/** Offer `from`/`to` date inputs (the member's and server pages; their routes read them). */
	rangeForm?: boolean;
}

/** A stats page: what `/stats` shows, with the chart drawn in the page and the same numbers in a table. */
export function statsBody(stats: DashboardStats, options: StatsPageOptions): SafeHtml {
	const t = translator(options.locale);
	const locale = options.locale;
	const { snapshot } = stats.result;
	const account = snapshot.meta.user;
	const lang = options.lang ? `&lang=${options.lang}` : '';
	// A day choice leaves the chosen range; a metric choice keeps it.
	const rangeQuery = stats.range ? `&from=${stats.range.from}&to=${stats.range.to}` : '';
	const query = (days: StatsDays, metric: StatsMetric) => `${options.path}?days=${days}&metric=${metric}${lang}`;
	const metricQuery = (metric: StatsMetric) => `${query(stats.days, metric)}${rangeQuery}`;
	return html`<h1>${options.heading}</h1>
		<p class="account">${account === null ? t('web.accountUnknown') : t('web.account', { account })}</p>
		${generatedLine(stats, t, locale)}
		<nav class="choices" aria-label="${t('web.days')}">
			<span>${t('web.days')}:</span> ${STATS_DAYS.map((days) =>
				choice(query(days, stats.metric), String(days), stats.range === null && days === stats.days),
			)}
		</nav>
		${options.rangeForm ? rangeForm(stats, t, options) : ''}
		<nav class="choices" aria-label="${t('web.metric')}">
			<span>${t('web.metric')}:</span> ${STATS_METRICS.map((metric) =>
				choice(metricQuery(metric), t(`chart.legend.${metric}`), metric === stats.metric),
			)}
		</nav>
		${totalsTable(stats, t, locale)} ${goalsSection(stats.goals, t, locale)}
		<figure class="chart">
			${
				stats.chart
					? html`<div class="chart-box">
								<canvas id="chart" width="800" height="400" role="img" aria-label="${t('web.chartLabel')}"></canvas>
							</div>
							<script type="application/json" id="chart-data">
								${jsonForScript({ config: stats.chart.config, dates: stats.chartDates })}
							</script>`
					: ''
			}
			${stats.notes.map((note) => html`<figcaption>${note}</figcaption>`)}
		</figure>
		${dayNotesList(stats, t)}
		${options.exportPath ? html`<p><a class="button" href="${options.exportPath}?days=${stats.days}${rangeQuery}" download>${t('web.download')}</a></p>` : ''}
		${options.extra ?? ''} ${seriesTable(stats, t, locale)}
		<script src="${staticUrl('chart.umd.min.js')}"></script>
		<script src="${staticUrl('chartjs-plugin-annotation.min.js')}"></script>
		<script src="${staticUrl('dashboard.js')}"></script>`;
}

/**
 * Two date inputs in a GET form: it works without JavaScript (a browser without a date picker posts the typed
 * `YYYY-MM-DD`, checked as `/stats` checks it). Empty, they show the days of the current view.
 */
function rangeForm(stats: DashboardStats, t: Translate, options: StatsPageOptions): SafeHtml {
	const shown = stats.range ?? { from: stats.series[0]?.date ?? stats.today, to: stats.today };
	return html`<form class="choices range" method="get" action="${options.path}">
		<label
			>${t('web.from')} <input type="date" name="from" value="${shown.from}" max="${stats.today}" required
		/></label>
		<label>${t('web.to')} <input type="date" name="to" value="${shown.to}" max="${stats.today}" required /></label>
		<input type="hidden" name="metric" value="${stats.metric}" />
		${options.lang ? html`<input type="hidden" name="lang" value="${options.lang}" />` : ''}
		<button type="submit">${t('web.showRange')}</button>
	</form>`;
}

/** The notes on the days shown, under the chart: a note's text is data, escaped as every value (html``). */
function dayNotesList(stats: DashboardStats, t: Translate): SafeHtml | string {
	if (stats.dayNotes.length === 0) return '';
	return html`<section class="day-notes" aria-label="${t('web.notes.onChart')}">
		<h2>${t('web.notes.onChart')}</h2>
		<ul>
			${stats.dayNotes.map((note) => html`<li><time datetime="${note.date}">${note.date}</time> ${note.text}</li>`)}
		</ul>
	</section>`;
}

function choice(href: string, label: string, current: boolean): SafeHtml {
	return current
		? html`<a href="${href}" aria-current="page" class="current">${label}</a> `
		: html`<a href="${href}">${label}</a> `;
}

function generatedLine(stats: DashboardStats, t: Translate, locale: string): SafeHtml {
	const at = stats.result.snapshot.meta.generatedAt ?? new Date(stats.result.fetchedAt).toISOString();
	const time = formatInstant(at, locale);
	if (stats.result.isStale) return html`<p class="stale">${t('web.stale', { time })}</p>`;
	return html`<p class="generated">${t('web.generated', { time })}</p>`;
}

function formatInstant(iso: string, locale: string): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return '—';
	return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date);
}

function totalsTable(stats: DashboardStats, t: Translate, locale: string): SafeHtml {
	const { snapshot } = stats.result;
	const { sends, joins } = stats.comparisons;
	// Today is not over: it stands beside yesterday's total, never with a percentage (as in the embed).
	const todayCell = (today: number | null, yesterday: number | null) =>
		html`<td>
			${formatCount(today, locale)}
			<span class="change">${t('web.besideYesterday', { value: formatCount(yesterday, locale) })}</span>
		</td>`;
	const changeCell = (comparison: PeriodComparison) =>
		html`<td>
			${formatCount(comparison.current, locale)}
			<span class="change">${changeText(comparison.change, t, locale)}</span>
		</td>`;
	const plainCell = (value: number | null) => html`<td>${formatCount(value, locale)}</td>`;
	const row = (label: string, cells: SafeHtml[]) =>
		html`<tr>
			<th scope="row">${label}</th>
			${cells}
		</tr>`;
	return html`<table class="totals">
			<caption>
				${t('web.totals')}
			</caption>
			<thead>
				<tr>
					<th scope="col">${t('web.period')}</th>
					<th scope="col">${t('chart.legend.sends')}</th>
					<th scope="col">${t('chart.legend.joins')}</th>
				</tr>
			</thead>
			<tbody>
				${row(t('fullDays.today'), [
					todayCell(sends.day.today, sends.day.yesterday),
					todayCell(joins.day.today, joins.day.yesterday),
				])}
				${row(t('embed.fields.last7'), [plainCell(snapshot.sends.weekly), plainCell(snapshot.joins.weekly)])}
				${row(t('embed.fields.last30'), [plainCell(snapshot.sends.monthly), plainCell(snapshot.joins.monthly)])}
				${row(t('embed.fields.allTime'), [plainCell(snapshot.sends.allTime), plainCell(snapshot.joins.allTime)])}
				${row(t('fullDays.last7'), [changeCell(sends.week), changeCell(joins.week)])}
				${row(t('fullDays.last30'), [changeCell(sends.month), changeCell(joins.month)])}
				${
					stats.rangeComparisons
						? row(
								t('range.compared', {
									range: formatUtcDateRange(stats.rangeComparisons.sends.from, stats.rangeComparisons.sends.to, locale),
								}),
								[changeCell(stats.rangeComparisons.sends), changeCell(stats.rangeComparisons.joins)],
							)
						: ''
				}
				<tr>
					<th scope="row">${t('embed.fields.failedSends')}</th>
					<td>
						${formatCount(snapshot.sends.failedAllTime, locale)}
						<span class="change">${formatPercent(failureShare(snapshot), locale)}</span>
					</td>
					<td></td>
				</tr>
				<tr>
					<th scope="row">${t('embed.fields.conversion')}</th>
					<td colspan="2">${formatDecimal(joinsPer100Sends(snapshot), locale)}</td>
				</tr>
			</tbody>
		</table>
		<p class="note">${t('fullDays.note')}</p>`;
}

function seriesTable(stats: DashboardStats, t: Translate, locale: string): SafeHtml {
	return html`<table class="series">
		<caption>
			${t('web.dailyFigures')}
		</caption>
		<thead>
			<tr>
				<th scope="col">${t('web.date')}</th>
				<th scope="col">${t('chart.legend.sends')}</th>
				<th scope="col">${t('chart.legend.joins')}</th>
				<th scope="col">${t('web.failedSends')}</th>
			</tr>
		</thead>
		<tbody>
			${seriesRows(stats, locale)}
		</tbody>
	</table>`;
}

/**
 * One row per day (365 on a year's page): built with one number and one date formatter, not a template call
 * and two formatter lookups per cell, which made up most of a year page's time.
 */
function seriesRows(stats: DashboardStats, locale: string): SafeHtml {
	const count = numberFormat(locale, { maximumFractionDigits: 0 });
	const date = dateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
	const cell = (value: number | null) => `<td>${value === null ? MISSING : escapeHtml(count.format(value))}</td>`;
	let rows = '';
	for (const day of stats.series) {
		const label = escapeHtml(date.format(Date.parse(`${day.date}T00:00:00Z`)));
		rows += `<tr data-date="${escapeHtml(day.date)}"><th scope="row"><time datetime="${escapeHtml(day.date)}">${label}</time></th>${cell(day.sends)}${cell(day.joins)}${cell(day.failedSends)}</tr>\n`;
	}
	return new SafeHtml(rows);
}
