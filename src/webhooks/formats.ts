// The body and headers of one attempt in each format. The body of an event is the same on every attempt; only the
// standard format's webhook-timestamp and signature are made at the attempt (receivers allow 5 minutes of skew).
import { Webhook } from 'standardwebhooks';
import type { QueuedDelivery, WebhookFormat } from './webhook-record.js';

/** The most a body may hold; the text is shortened to fit. */
export const MAX_BODY_BYTES = 32 * 1024;
/** Discord's limits: 2,000 characters of content, 4,096 of an embed's description, 256 of its title. */
const DISCORD_CONTENT = 2000;
const DISCORD_DESCRIPTION = 4096;
const DISCORD_TITLE = 256;
/** Slack's limit on a section's text. */
const SLACK_SECTION = 3000;

export interface Attempt {
	body: string;
	headers: Record<string, string>;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function standardBody(delivery: QueuedDelivery, text: string): string {
	const { event } = delivery;
	return JSON.stringify({
		type: delivery.type,
		timestamp: new Date(delivery.occurredAt).toISOString(),
		// The event's figures and details beside the fixed fields, which win over a figure of the same name.
		data: {
			...event.details,
			...event.figures,
			server: event.server,
			account: event.account,
			title: event.title,
			text,
		},
	});
}

function slackBody(delivery: QueuedDelivery, text: string): string {
	const { event } = delivery;
	const body = clip(text, SLACK_SECTION);
	return JSON.stringify({
		text: `${event.title}\n${body}`,
		blocks: [
			{ type: 'header', text: { type: 'plain_text', text: clip(event.title, 150) } },
			{ type: 'section', text: { type: 'plain_text', text: body } },
			{ type: 'context', elements: [{ type: 'plain_text', text: event.server.name || event.server.id }] },
		],
	});
}

function discordBody(delivery: QueuedDelivery, text: string): string {
	const { event } = delivery;
	return JSON.stringify({
		content: clip(event.title, DISCORD_CONTENT),
		embeds: [
			{
				title: clip(event.title, DISCORD_TITLE),
				description: clip(text, DISCORD_DESCRIPTION),
				timestamp: new Date(delivery.occurredAt).toISOString(),
				footer: { text: clip(event.server.name || event.server.id, 2048) },
			},
		],
		// Nobody is pinged, whatever the text holds.
		allowed_mentions: { parse: [] },
	});
}

const BODIES: Record<WebhookFormat, (delivery: QueuedDelivery, text: string) => string> = {
	standard: standardBody,
	slack: slackBody,
	discord: discordBody,
};

/** How long the name-like fields may be when the rest of an event alone passes the body's limit. */
const FIELD_CUT = 256;

/**
 * The event with only what it cannot do without, each field cut: what is sent when the text shortened to nothing
 * still leaves the body over 32 KB (many details, or very long names).
 */
function fixedFieldsOf(delivery: QueuedDelivery): QueuedDelivery {
	const { event } = delivery;
	return {
		...delivery,
		event: {
			server: { id: event.server.id, name: clip(event.server.name, FIELD_CUT) },
			account: event.account === null ? null : clip(event.account, FIELD_CUT),
			title: clip(event.title, FIELD_CUT),
			text: '',
			figures: {},
			details: {},
		},
	};
}

/** The event's body in `format`, its text shortened until the whole is at most 32 KB. */
export function bodyOf(format: WebhookFormat, delivery: QueuedDelivery): string {
	let text = delivery.event.text;
	let body = BODIES[format](delivery, text);
	while (Buffer.byteLength(body) > MAX_BODY_BYTES && text.length > 0) {
		// One character left is dropped, not clipped: clip() would give back the ellipsis for ever.
		text = text.length <= 1 ? '' : clip(text, Math.floor(text.length * 0.8));
		body = BODIES[format](delivery, text);
	}
	if (Buffer.byteLength(body) <= MAX_BODY_BYTES) return body;
	return BODIES[format](fixedFieldsOf(delivery), '');
}

/** One attempt's body and headers; `secret` signs a standard delivery. */
export function buildAttempt(
	format: WebhookFormat,
	delivery: QueuedDelivery,
	secret: string | null,
	now: number,
): Attempt {
	const body = bodyOf(format, delivery);
	const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'adstats-webhooks/1' };
	if (format === 'standard' && secret !== null) {
		const at = new Date(now);
		headers['webhook-id'] = delivery.eventId;
		headers['webhook-timestamp'] = String(Math.floor(now / 1000));
		headers['webhook-signature'] = new Webhook(secret).sign(delivery.eventId, at, body);
	}
	return { body, headers };
}
