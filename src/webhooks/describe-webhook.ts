// A webhook in plain words: a line of /webhook list and the manage page, why it stopped, a delivery of its log.
import type { Translate } from '../i18n/index.js';
import type { DeliveryLogEntry, WebhookDisabled, WebhookRecord } from './webhook-record.js';

/** `the receiver said it is gone (410)`, `every retry failed (last: 500)`. */
export function describeDisabled(t: Translate, disabled: WebhookDisabled): string {
	const status = disabled.status === null ? t('webhook.noStatus') : String(disabled.status);
	return t(disabled.reason === 'gone' ? 'webhook.disabledGone' : 'webhook.disabledRetries', { status });
}

/** `hooks.slack.com …AbCd · slack · alerts · enabled` */
export function describeWebhook(t: Translate, record: WebhookRecord): string {
	const state = record.disabled
		? t('webhook.stateDisabled', { reason: describeDisabled(t, record.disabled) })
		: t('webhook.stateEnabled');
	return t('webhook.line', {
		hint: record.hint,
		format: t(`webhook.formats.${record.format}`),
		events: t(`webhook.events.${record.events}`),
		state,
	});
}

/** A delivery's status as the log shows it: the code, or why there was none. */
export function describeDeliveryStatus(t: Translate, entry: DeliveryLogEntry): string {
	if (entry.status !== null) return String(entry.status);
	return t(`webhook.failures.${entry.error === undefined ? 'network' : entry.error}` as 'webhook.failures.network');
}
