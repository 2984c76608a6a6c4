// Adding, removing, listing and testing a server's webhooks: the whole rule, for `/webhook` and the dashboard.
import { randomBytes } from 'node:crypto';
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { RelinkNeededError, UserFacingError } from '../errors.js';
import type { MessageKey } from '../i18n/index.js';
import { auditTime, postAudit } from '../settings/audit.js';
import { serverLocale } from '../settings/language.js';
import { translator } from '../i18n/index.js';
import { checkWebhookUrl, systemResolve, urlHint, WebhookUrlRefusedError } from './address-guard.js';
import { attemptDelivery, logEntryOf } from './webhook-delivery.js';
import { allowListOf, deliveryDeps, type WebhookContext } from './webhook-context.js';
import { newEventId } from './webhook-events.js';
import {
	isWebhookEventChoice,
	isWebhookFormat,
	MAX_WEBHOOKS_PER_SERVER,
	queueKey,
	RECORD_VERSION,
	webhookKey,
	type DeliveryLogEntry,
	type QueuedDelivery,
	type WebhookRecord,
} from './webhook-record.js';
import { newSigningSecret, sealerOf } from './webhook-seal.js';
import { webhookStoreOf } from './webhook-store.js';

/** The longest URL accepted: Slack's and Discord's are about 120 characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface WebhookInput {
	guildId: string;
	guildLocale: string | null;
	format: string | null;
	events: string | null;
	url: string | null;
}

/** Checks the options before the modal opens: bad input is refused before anyone pastes a URL. */
export function readWebhookOptions(input: Pick<WebhookInput, 'format' | 'events'>) {
	const format = input.format ?? 'standard';
	const events = input.events ?? 'all';
	if (!isWebhookFormat(format)) throw new UserFacingError('webhook.invalidFormat');
	if (!isWebhookEventChoice(events)) throw new UserFacingError('webhook.invalidEvents');
	return { format, events };
}

/** The reason a URL was refused, as the member reads it. */
function refusalError(error: WebhookUrlRefusedError): UserFacingError {
	return new UserFacingError(`webhook.refused.${error.reason}` as MessageKey);
}

/**
 * Adds a webhook: the URL checked (resolved, every address), sealed, and shown from then on as its host and last 4
 * characters. The standard format's secret is returned once, for the member to copy; it is stored sealed.
 */
export async function addWebhook(
	ctx: WebhookContext,
	actor: Actor,
	input: WebhookInput,
): Promise<{ record: WebhookRecord; secret: string | null }> {
	requireManageServer(actor, 'webhook');
	const { format, events } = readWebhookOptions(input);
	const url = (input.url ?? '').trim();
	if (url === '' || url.length > MAX_WEBHOOK_URL_LENGTH) throw new UserFacingError('webhook.refused.invalidUrl');
	try {
		await checkWebhookUrl(url, allowListOf(ctx), ctx.webhookResolve ?? systemResolve);
	} catch (error) {
		if (error instanceof WebhookUrlRefusedError) throw refusalError(error);
		throw error;
	}
	const store = webhookStoreOf(ctx);
	const sealer = sealerOf(ctx.config);
	const now = clockOf(ctx)();
	const secret = format === 'standard' ? newSigningSecret() : null;
	const record = await store.withServerLock(input.guildId, async () => {
		const existing = await store.webhooks.listServer(input.guildId);
		if (existing.length >= MAX_WEBHOOKS_PER_SERVER) {
			throw new UserFacingError('webhook.tooMany', { max: MAX_WEBHOOKS_PER_SERVER });
		}
		const id = randomBytes(4).toString('hex');
		const key = webhookKey(input.guildId, id);
		const added: WebhookRecord = {
			v: RECORD_VERSION,
			guildId: input.guildId,
			id,
			format,
			events,
			kid: sealer.kid,
			sealedUrl: sealer.seal(url, key, 'url'),
			sealedSecret: secret === null ? null : sealer.seal(secret, key, 'secret'),
			hint: urlHint(url),
			createdBy: actor.userId,
			createdAt: now,
			guildLocale: input.guildLocale,
			disabled: null,
		};
		await store.webhooks.put(added);
		return added;
	});
	await auditWebhook(ctx, actor, record, 'webhook.audit.added', now);
	return { record, secret };
}

/** Removes a webhook, its queued deliveries and its log: whether there was one. */
export async function removeWebhook(
	ctx: WebhookContext,
	actor: Actor,
	guildId: string,
	webhookId: string | null,
): Promise<WebhookRecord | null> {
	requireManageServer(actor, 'webhook');
	const store = webhookStoreOf(ctx);
	const record = webhookId ? await store.webhooks.get(guildId, webhookId) : null;
	if (!record) return null;
	await store.webhooks.remove(guildId, record.id);
	for await (const delivery of store.queued(guildId, record.id)) {
		await store.updateQueued(queueKey(delivery), () => null);
	}
	await store.removeLog(guildId, record.id);
	await auditWebhook(ctx, actor, record, 'webhook.audit.removed', clockOf(ctx)());
	return record;
}

export interface WebhookListing {
	record: WebhookRecord;
	/** The last deliveries, newest first. */
	deliveries: DeliveryLogEntry[];
}

/** The server's webhooks with their last deliveries (Manage Server, like changing them). */
export async function listWebhooks(ctx: WebhookContext, actor: Actor, guildId: string): Promise<WebhookListing[]> {
	requireManageServer(actor, 'webhook');
	const store = webhookStoreOf(ctx);
	const records = await store.webhooks.listServer(guildId);
	return Promise.all(records.map(async (record) => ({ record, deliveries: await store.log(guildId, record.id) })));
}

/**
 * Sends a `ping` to the webhook now and answers its status code (never its body), or why there was none. A
 * disabled webhook is tested too, and a 2xx enables it again: the admin fixed the receiver and checked it, so its
 * events go there from then on (the audit channel is told), without adding it again under a new secret.
 */
export async function testWebhook(
	ctx: WebhookContext,
	actor: Actor,
	guildId: string,
	webhookId: string | null,
): Promise<{ record: WebhookRecord; entry: DeliveryLogEntry; enabledAgain: boolean }> {
	requireManageServer(actor, 'webhook');
	const store = webhookStoreOf(ctx);
	const record = webhookId ? await store.webhooks.get(guildId, webhookId) : null;
	if (!record) throw new UserFacingError('webhook.notFound');
	const now = clockOf(ctx);
	const locale = await serverLocale(ctx, guildId, record.guildLocale);
	const t = translator(locale);
	const serverName = (await ctx.guildApi.guildName(guildId).catch(() => null)) ?? '';
	const ping: QueuedDelivery = {
		v: RECORD_VERSION,
		guildId,
		webhookId: record.id,
		eventId: newEventId(),
		type: 'ping',
		occurredAt: now(),
		event: {
			server: { id: guildId, name: serverName },
			account: null,
			title: t('webhook.pingTitle'),
			text: t('webhook.pingText'),
			figures: {},
			details: {},
		},
		attempts: 0,
		dueAt: now(),
		lastStatus: null,
	};
	const result = await attemptDelivery(
		{
			sealer: sealerOf(ctx.config),
			allow: allowListOf(ctx),
			resolve: ctx.webhookResolve ?? systemResolve,
			now,
			timeoutMs: ctx.webhookTimeoutMs,
		},
		record,
		ping,
	).catch((error: unknown) => {
		// LINK_SECRET changed without its previous one: no configured secret opens the URL any more.
		if (error instanceof RelinkNeededError) throw new UserFacingError('webhook.unreadable');
		throw error;
	});
	const entry = logEntryOf(result, ping, now(), false);
	await store.appendLog(guildId, record.id, entry);
	if (result.kind === 'gone' && !record.disabled) {
		// The receiver says the webhook is gone: disabled at once, as a delivery's 410 does.
		const disabled = { reason: 'gone' as const, at: now(), status: result.status };
		const stored = await store.webhooks.update(guildId, record.id, (current) =>
			current && !current.disabled ? { ...current, disabled } : undefined,
		);
		if (stored?.disabled === disabled)
			await deliveryDeps(ctx)
				.onDisabled(stored)
				.catch(() => undefined);
		return { record: stored ?? record, entry, enabledAgain: false };
	}
	if (result.kind === 'delivered' && record.disabled) {
		const stored = await store.webhooks.update(guildId, record.id, (current) =>
			current?.disabled ? { ...current, disabled: null } : undefined,
		);
		if (stored?.disabled !== null) return { record: stored ?? record, entry, enabledAgain: false };
		await auditWebhook(ctx, actor, stored, 'webhook.audit.enabled', now(), result.status);
		return { record: stored, entry, enabledAgain: true };
	}
	return { record, entry, enabledAgain: false };
}

async function auditWebhook(
	ctx: WebhookContext,
	actor: Actor,
	record: WebhookRecord,
	key: 'webhook.audit.added' | 'webhook.audit.removed' | 'webhook.audit.enabled',
	now: number,
	status: number | null = null,
): Promise<void> {
	const language = await serverLocale(ctx, record.guildId, record.guildLocale);
	const t = translator(language);
	const vars = {
		actor: auditActor(actor),
		hint: record.hint,
		format: t(`webhook.formats.${record.format}`),
		events: t(`webhook.events.${record.events}`),
		when: auditTime(now),
		status: String(status ?? ''),
	};
	await postAudit(ctx, record.guildId, { key, vars }, { guildLocale: record.guildLocale });
}
