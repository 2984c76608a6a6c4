import { renderMessage, type FacingMessage, type Translate } from '../i18n/index.js';
import { permissionList } from '../permissions.js';
import type { ReportPause, ReportRecord } from './report-record.js';

type Schedule = Pick<ReportRecord, 'every' | 'hour' | 'timezone' | 'weekday'>;

/** A schedule before translation, so an audit line can name it in the server's language and a reply in the member's. */
export function scheduleMessage(record: Schedule): FacingMessage {
	const time = `${String(record.hour).padStart(2, '0')}:00`;
	if (record.every === 'daily') return { key: 'report.schedule.daily', vars: { time, timezone: record.timezone } };
	const weekday: FacingMessage = { key: `choices.weekday.${record.weekday ?? 'mon'}` };
	return { key: 'report.schedule.weekly', vars: { weekday, time, timezone: record.timezone } };
}

/** `daily at 09:00 (Europe/Berlin), last 7 days` in the reader's language. */
export function describeSchedule(t: Translate, record: Schedule): string {
	return renderMessage(t, scheduleMessage(record));
}

/** Why a report stopped, before translation; missing permissions are named as a list in the reader's language. */
export function pauseMessage(pause: ReportPause): FacingMessage {
	if (pause.reason !== 'missingPermissions') return { key: `report.paused.${pause.reason}` };
	return { key: 'report.paused.missingPermissions', vars: { permissions: permissionList(pause.permissions ?? []) } };
}

export function describePause(t: Translate, pause: ReportPause): string {
	return renderMessage(t, pauseMessage(pause));
}
