// An outgoing webhook of a server, the deliveries waiting for it, and the last ones it had. The URL and the
// standard format's secret are stored sealed under LINK_SECRET, as API keys are; only a hint is kept in clear.
import { WEBHOOK_LOG_PREFIX, WEBHOOK_PREFIX, WEBHOOK_QUEUE_PREFIX } from '../core/record-kinds.js';

export const WEBHOOK_FORMATS = ['standard', 'slack', 'discord'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const WEBHOOK_EVENT_CHOICES = ['all', 'alerts', 'reports'] as const;
export type WebhookEventChoice = (typeof WEBHOOK_EVENT_CHOICES)[number];
export const WEBHOOK_EVENT_TYPES = ['alert.fired', 'report.posted', 'ping'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const MAX_WEBHOOKS_PER_SERVER = 5;
/** Deliveries each webhook's log keeps, newest first. */
export const DELIVERY_LOG_LENGTH = 10;
const VERSION = 1;

/** Why a webhook stopped: the receiver said it is gone (410, a deleted Discord webhook) or every retry failed. */
export interface WebhookDisabled {
	reason: 'gone' | 'retriesExhausted';
	at: number;
	/** The last answer's status; null for a timeout, a network error or a refused address. */
	status: number | null;
}

export interface WebhookRecord {
	v: typeof VERSION;
	guildId: string;
	id: string;
	format: WebhookFormat;
	events: WebhookEventChoice;
	/** Names the secret that sealed the URL and the signing secret. */
	kid: string;
	sealedUrl: string;
	/** The standard format's `whsec_…` secret, sealed; null for slack and discord. */
	sealedSecret: string | null;
	/** Host and the URL's last 4 characters: what lists, the manage page and audit lines show. */
	hint: string;
	createdBy: string;
	createdAt: number;
	/** The server's Discord locale when added, for the audit line while it has no language set. */
	guildLocale: string | null;
	disabled: WebhookDisabled | null;
}

/** One event waiting for one webhook: its body data is fixed, so every retry sends the same id and body. */
export interface QueuedDelivery {
	v: typeof VERSION;
	guildId: string;
	webhookId: string;
	/** The `webhook-id` of every attempt: `msg_…`. */
	eventId: string;
	type: WebhookEventType;
	/** Epoch ms of the event. */
	occurredAt: number;
	event: WebhookEventData;
	/** Attempts made so far. */
	attempts: number;
	/** Epoch ms of the next attempt. */
	dueAt: number;
	/** The last attempt's status or failure, for the log. */
	lastStatus: number | null;
}

/** What an event says, in the server's language; the figures are numbers. */
export interface WebhookEventData {
	server: { id: string; name: string };
	/** The account the figures are of, when known. */
	account: string | null;
	/** The text the bot posted, as plain text. */
	text: string;
	/** A headline (the post's title). */
	title: string;
	/** Figures of the event, by name. */
	figures: Record<string, number>;
	/** More fields of the event (the alert kind and id, the report's channel), plain values. */
	details: Record<string, string>;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'gone' | 'retriesExhausted';

export interface DeliveryLogEntry {
	at: number;
	type: WebhookEventType;
	/** The receiver's status; null for a timeout, a network error, a refused address. */
	status: number | null;
	outcome: DeliveryOutcome;
	/** Why no status: `timeout`, `network`, `refused`, `redirect`, `tooLarge`. */
	error?: string;
}

export interface DeliveryLog {
	v: typeof VERSION;
	guildId: string;
	webhookId: string;
	entries: DeliveryLogEntry[];
}

export const webhookKey = (guildId: string, id: string) => `${WEBHOOK_PREFIX}${guildId}:${id}`;
export const webhookPrefix = (guildId?: string) => `${WEBHOOK_PREFIX}${guildId === undefined ? '' : `${guildId}:`}`;
export const queueKey = (delivery: Pick<QueuedDelivery, 'guildId' | 'webhookId' | 'eventId'>) =>
	`${WEBHOOK_QUEUE_PREFIX}${delivery.guildId}:${delivery.webhookId}:${delivery.eventId}`;
export const queuePrefix = (guildId?: string, webhookId?: string) =>
	`${WEBHOOK_QUEUE_PREFIX}${guildId === undefined ? '' : `${guildId}:${webhookId === undefined ? '' : `${webhookId}:`}`}`;
export const logKey = (guildId: string, webhookId: string) => `${WEBHOOK_LOG_PREFIX}${guildId}:${webhookId}`;

export const isWebhookFormat = (value: unknown): value is WebhookFormat =>
	(WEBHOOK_FORMATS as readonly unknown[]).includes(value);
export const isWebhookEventChoice = (value: unknown): value is WebhookEventChoice =>
	(WEBHOOK_EVENT_CHOICES as readonly unknown[]).includes(value);
const isEventType = (value: unknown): value is WebhookEventType =>
	(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(value);

/** Whether a webhook wants an event: `ping` always (it is asked for), the others by the `events` choice. */
export function wantsEvent(record: Pick<WebhookRecord, 'events'>, type: WebhookEventType): boolean {
	if (type === 'ping' || record.events === 'all') return true;
	return record.events === (type === 'alert.fired' ? 'alerts' : 'reports');
}

type Fields = Record<string, unknown>;
const fields = (raw: unknown): Fields | null => (typeof raw === 'object' && raw !== null ? (raw as Fields) : null);
const isText = (value: unknown): value is string => typeof value === 'string';

export function parseWebhook(raw: unknown): WebhookRecord | null {
	const r = fields(raw);
	if (!r || r.v !== VERSION || !isText(r.guildId) || !isText(r.id) || !isText(r.sealedUrl) || !isText(r.kid)) {
		return null;
	}
	if (!isWebhookFormat(r.format) || !isWebhookEventChoice(r.events) || !isText(r.hint)) return null;
	return raw as WebhookRecord;
}

export function parseQueuedDelivery(raw: unknown): QueuedDelivery | null {
	const r = fields(raw);
	if (!r || r.v !== VERSION || !isText(r.guildId) || !isText(r.webhookId) || !isText(r.eventId)) return null;
	if (!isEventType(r.type) || typeof r.dueAt !== 'number' || typeof r.attempts !== 'number' || !fields(r.event)) {
		return null;
	}
	return raw as QueuedDelivery;
}

export function parseDeliveryLog(raw: unknown): DeliveryLog | null {
	const r = fields(raw);
	if (!r || r.v !== VERSION || !isText(r.guildId) || !isText(r.webhookId) || !Array.isArray(r.entries)) return null;
	return raw as DeliveryLog;
}

export const RECORD_VERSION = VERSION;
