import type { Locale, Translate } from '../i18n/index.js';
import { type ReportPause, type ReportPermission, type ReportRecord } from './report-record.js';

/** `daily at 09:00 (Europe/Berlin), last 7 days` in the reader's language. */
export function describeSchedule(t: Translate, record: Pick<ReportRecord, 'every' | 'hour' | 'timezone' | 'weekday'>) {
	const time = `${String(record.hour).padStart(2, '0')}:00`;
	if (record.every === 'daily') return t('report.schedule.daily', { time, timezone: record.timezone });
	const weekday = t(`choices.weekday.${record.weekday ?? 'mon'}`);
	return t('report.schedule.weekly', { weekday, time, timezone: record.timezone });
}

/** `View Channel and Attach Files`, joined the way the language joins a list. */
export function permissionList(t: Translate, locale: Locale, permissions: readonly ReportPermission[]): string {
	return new Intl.ListFormat(locale, { type: 'conjunction' }).format(
		permissions.map((permission) => t(`permissions.${permission}`)),
	);
}

export function describePause(t: Translate, locale: Locale, pause: ReportPause): string {
	if (pause.reason !== 'missingPermissions') return t(`report.paused.${pause.reason}`);
	return t('report.paused.missingPermissions', { permissions: permissionList(t, locale, pause.permissions ?? []) });
}
