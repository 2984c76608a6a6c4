// An event the bot posted (an alert firing, a report), queued once for each of the server's webhooks that wants
// it. The process that posted queues it, once: the post itself is claimed once across processes.
import { randomBytes } from 'node:crypto';
import type { APIEmbed } from 'discord.js';
import type { ChannelMessage } from '../message.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import { signalQueued } from './queue-signal.js';
import type { WebhookStore } from './webhook-store.js';
import {
	RECORD_VERSION,
	wantsEvent,
	type QueuedDelivery,
	type WebhookEventData,
	type WebhookEventType,
} from './webhook-record.js';

/** A Standard Webhooks message id: `msg_` and 24 random characters, the same on every retry. */
export const newEventId = (): string => `msg_${randomBytes(18).toString('base64url')}`;

/** Discord's timestamp markup (`<t:1700000000:F>`) as an ISO time: a receiver shows no Discord markup. */
const TIMESTAMP = /<t:(-?\d+)(?::[tTdDfFR])?>/g;
const plain = (text: string) =>
	text.replace(TIMESTAMP, (_all, seconds: string) => new Date(Number(seconds) * 1000).toISOString());

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
	if (webhooks.length > 0) signalQueued(deps.store);
	return webhooks.length;
}

/** What queuing a posted message as an event needs of the bot's context. */
export interface PostedEventContext {
	store: WebhookStore;
	now: () => number;
	guildName: (guildId: string) => Promise<string | null>;
	serverAccount: (guildId: string) => Promise<string | null>;
	log: { warn(fields: object, message: string): void };
}

/**
 * Queues what the bot just posted as an event for the server's webhooks. Never throws: the post has happened and
 * must not be posted again because a webhook could not be queued; the failure is logged.
 */
export async function queuePostedEvent(
	ctx: PostedEventContext,
	guildId: string,
	type: Exclude<WebhookEventType, 'ping'>,
	message: Pick<ChannelMessage, 'content' | 'embeds'>,
	extra: { figures: Record<string, number>; details: Record<string, string> },
): Promise<void> {
	try {
		const webhooks = await ctx.store.webhooks.listServer(guildId);
		if (!webhooks.some((record) => !record.disabled && wantsEvent(record, type))) return;
		const [name, account] = await Promise.all([
			ctx.guildName(guildId).catch(() => null),
			ctx.serverAccount(guildId).catch(() => null),
		]);
		const { title, text } = messageText(message);
		const figures = Object.fromEntries(Object.entries(extra.figures).filter(([, value]) => Number.isFinite(value)));
		await queueWebhookEvent(ctx, guildId, type, {
			server: { id: guildId, name: name ?? '' },
			account,
			title,
			text,
			figures,
			details: extra.details,
		});
	} catch (error) {
		ctx.log.warn({ guildId, type, error: error instanceof Error ? error.name : 'unknown' }, 'webhook event not queued');
	}
}

/** A snapshot's figures by name, the ones the endpoint gave (a figure it left out is left out here too). */
export function snapshotFigures(snapshot: StatsSnapshot): Record<string, number> {
	const all: Record<string, number | null> = {
		sendsToday: snapshot.sends.today,
		sendsWeek: snapshot.sends.weekly,
		sendsMonth: snapshot.sends.monthly,
		sendsAllTime: snapshot.sends.allTime,
		failedSendsAllTime: snapshot.sends.failedAllTime,
		joinsToday: snapshot.joins.today,
		joinsWeek: snapshot.joins.weekly,
		joinsMonth: snapshot.joins.monthly,
		joinsAllTime: snapshot.joins.allTime,
	};
	return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, number] => entry[1] !== null));
}
