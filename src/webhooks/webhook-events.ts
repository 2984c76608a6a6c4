// An event the bot posted (an alert firing, a report), queued once for each of the server's webhooks that wants
// it. The process that posted queues it, once: the post itself is claimed once across processes.
import { randomBytes } from 'node:crypto';
import type { APIEmbed } from 'discord.js';
import type { ChannelMessage } from '../message.js';
import type { WebhookStore } from './webhook-store.js';
import { RECORD_VERSION, wantsEvent, type QueuedDelivery, type WebhookEventData, type WebhookEventType } from './webhook-record.js';

/** A Standard Webhooks message id: `msg_` and 24 random characters, the same on every retry. */
export const newEventId = (): string => `msg_${randomBytes(18).toString('base64url')}`;

/** Discord's timestamp markup (`<t:1700000000:F>`) as an ISO time: a receiver shows no Discord markup. */
const TIMESTAMP = /<t:(-?\d+)(?::[tTdDfFR])?>/g;
const plain = (text: string) => text.replace(TIMESTAMP, (_all, seconds: string) => new Date(Number(seconds) * 1000).toISOString());

function embedText(embed: APIEmbed): string[] {
	const lines: string[] = [];
	if (embed.title) lines.push(embed.title);
	if (embed.description) lines.push(embed.description);
	for (const field of embed.fields ?? []) lines.push(`${field.name}: ${field.value}`);
	if (embed.footer?.text) lines.push(embed.footer.text);
	return lines;
}

/** A posted message as plain text: its content, then each embed's title, description and fields. */
export function messageText(message: Pick<ChannelMessage, 'content' | 'embeds'>): { title: string; text: string } {
	const lines = [...(message.content ? [message.content] : []), ...(message.embeds ?? []).flatMap(embedText)];
	const title = plain(message.content || message.embeds?.[0]?.title || '');
	return { title, text: plain(lines.join('\n')) };
}

/** Queues the event for every enabled webhook of the server that wants it; the number queued. */
export async function queueWebhookEvent(
	deps: { store: WebhookStore; now: () => number },
	guildId: string,
	type: WebhookEventType,
	event: WebhookEventData,
): Promise<number> {
	const webhooks = (await deps.store.webhooks.listServer(guildId)).filter(
		(record) => !record.disabled && wantsEvent(record, type),
	);
	const now = deps.now();
	for (const record of webhooks) {
		const delivery: QueuedDelivery = {
			v: RECORD_VERSION,
			guildId,
			webhookId: record.id,
			eventId: newEventId(),
			type,
			occurredAt: now,
			event,
			attempts: 0,
			dueAt: now,
			lastStatus: null,
		};
		await deps.store.putQueued(delivery);
	}
	return webhooks.length;
}
