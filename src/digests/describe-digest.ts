import type { Translate } from '../i18n/index.js';
import type { DigestRecord } from './digest-record.js';

/** `Monday at 09:00 (Europe/Berlin)` in the reader's language. */
export function describeDigestSchedule(
	t: Translate,
	record: Pick<DigestRecord, 'weekday' | 'hour' | 'timezone'>,
): string {
	return t('digest.schedule', {
		weekday: t(`choices.weekday.${record.weekday}`),
		hour: `${String(record.hour).padStart(2, '0')}:00`,
		timezone: record.timezone,
	});
}
