// One queued delivery's attempt and what follows from it: delivered (dropped from the queue), retried later with the
// same webhook-id, or the webhook disabled (gone, or the last retry failed). Claimed per attempt across processes,
// so an event reaches a receiver once however many bot processes share the store.
import { RelinkNeededError } from '../errors.js';
import type { JobLog } from '../core/periodic-runner.js';
import type { AllowList, Resolve } from './address-guard.js';
import { deliverOnce, type AttemptResult } from './deliver.js';
import { buildAttempt } from './formats.js';
import { signalQueued } from './queue-signal.js';
import type { HostLimit } from './host-limit.js';
import type { Sealer } from './webhook-seal.js';
import type { WebhookStore } from './webhook-store.js';
import {
	queueKey,
	webhookKey,
	type DeliveryLogEntry,
	type QueuedDelivery,
	type WebhookDisabled,
	type WebhookFormat,
	type WebhookRecord,
} from './webhook-record.js';

/** After the first attempt fails: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (Standard Webhooks' own). */
export const RETRY_DELAYS_MS = [
	5_000,
	5 * 60_000,
	30 * 60_000,
	2 * 3_600_000,
	5 * 3_600_000,
	10 * 3_600_000,
	14 * 3_600_000,
	20 * 3_600_000,
	24 * 3_600_000,
] as const;
/** discord.com, discordapp.com and their subdomains (canary, ptb), with or without a port. */
const DISCORD_HOST = /(^|\.)discord(app)?\.com(:\d+)?$/i;
/** A Retry-After longer than this is read as this: a receiver cannot park a delivery for weeks. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** The longest an attempt waits for its host's turn in line; a later turn puts it off to a later scan. */
export const MAX_TURN_WAIT_MS = 2_000;
/** An attempt's claim outlives the attempt (10 s) and its wait for a turn by far. */
const ATTEMPT_CLAIM_TTL_MS = 5 * 60_000;

export const DELIVERY_OUTCOMES = ['delivered', 'failed', 'disabled'] as const;
export type DeliveryMetricOutcome = (typeof DELIVERY_OUTCOMES)[number];

export interface DeliveryDeps {
	store: WebhookStore;
	sealer: Sealer;
	allow: AllowList;
	resolve: Resolve;
	hostLimit: HostLimit;
	claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
	now: () => number;
	log: JobLog;
	/** adstats_webhook_deliveries_total. */
	count?: (format: WebhookFormat, outcome: DeliveryMetricOutcome) => void;
	/**
	 * A Discord host's answer (a `discord` webhook): its 401, 403 and 429 count towards Cloudflare's ban of the
	 * bot's address like the bot's own REST calls, so they go to the same counter.
	 */
	discordStatus?: (status: number) => void;
	/** Tells the audit channel once, when this process disabled the webhook. */
	onDisabled: (record: WebhookRecord) => Promise<void>;
	/** The retry delays (tests shorten them). */
	retryDelaysMs?: readonly number[];
	timeoutMs?: number;
}

/** One attempt, at one due time: an attempt the host's limit put off is due later, under a claim of its own. */
export const deliveryClaimKey = (delivery: QueuedDelivery) =>
	`webhook-delivery:${delivery.guildId}:${delivery.webhookId}:${delivery.eventId}:${delivery.attempts}:${delivery.dueAt}`;

/** The webhook's URL and signing secret, opened. */
export function openWebhook(sealer: Sealer, record: WebhookRecord): { url: string; secret: string | null } {
	const key = webhookKey(record.guildId, record.id);
	return {
		url: sealer.open(record.sealedUrl, record.kid, key, 'url'),
		secret: record.sealedSecret === null ? null : sealer.open(record.sealedSecret, record.kid, key, 'secret'),
	};
}

/**
 * A webhook sealed under LINK_SECRET_PREVIOUS sealed again under LINK_SECRET, as a link is when read, unless it
 * changed meanwhile: after a rotation every webhook that delivers once no longer needs the previous secret.
 */
export async function resealWebhook(
	deps: Pick<DeliveryDeps, 'sealer' | 'store'>,
	record: WebhookRecord,
): Promise<void> {
	const { url, secret } = openWebhook(deps.sealer, record);
	const key = webhookKey(record.guildId, record.id);
	await deps.store.webhooks.update(record.guildId, record.id, (current) =>
		current?.sealedUrl === record.sealedUrl && current.kid === record.kid
			? {
					...current,
					kid: deps.sealer.kid,
					sealedUrl: deps.sealer.seal(url, key, 'url'),
					sealedSecret: secret === null ? null : deps.sealer.seal(secret, key, 'secret'),
				}
			: undefined,
	);
}

/** One attempt of `delivery` to `record` (no queue involved): what /webhook test and the queue both send. */
export async function attemptDelivery(
	deps: Pick<DeliveryDeps, 'sealer' | 'allow' | 'resolve' | 'now' | 'timeoutMs'>,
	record: WebhookRecord,
	delivery: QueuedDelivery,
): Promise<AttemptResult> {
	const { url, secret } = openWebhook(deps.sealer, record);
	const attempt = buildAttempt(record.format, delivery, secret, deps.now());
	return deliverOnce(url, attempt, {
		allow: deps.allow,
		resolve: deps.resolve,
		now: deps.now,
		timeoutMs: deps.timeoutMs,
	});
}

export function logEntryOf(
	result: AttemptResult,
	delivery: QueuedDelivery,
	at: number,
	last: boolean,
): DeliveryLogEntry {
	const entry: DeliveryLogEntry = {
		at,
		type: delivery.type,
		status: result.status,
		outcome:
			result.kind === 'delivered'
				? 'delivered'
				: result.kind === 'gone'
					? 'gone'
					: last
						? 'retriesExhausted'
						: 'failed',
	};
	if (result.kind === 'failed' && result.failure !== 'status') entry.error = result.failure;
	return entry;
}

/** What became of a queued delivery: sent, put off for its host's turn, or not this process's (or not due). */
export type ProcessOutcome = 'attempted' | 'putOff' | 'skipped';

/** Attempts a due delivery unless another process has this attempt; settles the queue and the webhook after. */
export async function processDelivery(deps: DeliveryDeps, scanned: QueuedDelivery): Promise<ProcessOutcome> {
	if (scanned.dueAt > deps.now()) return 'skipped';
	if (!(await deps.claimOnce(deliveryClaimKey(scanned), ATTEMPT_CLAIM_TTL_MS))) return 'skipped';
	const key = queueKey(scanned);
	// Another process may have settled this attempt just before its claim expired: read it again.
	const delivery = await deps.store.getQueued(key);
	if (!delivery || delivery.attempts !== scanned.attempts || delivery.dueAt !== scanned.dueAt) return 'skipped';
	const record = await deps.store.webhooks.get(delivery.guildId, delivery.webhookId);
	if (!record || record.disabled) {
		await deps.store.updateQueued(key, () => null);
		return 'skipped';
	}
	if (!(await deps.hostLimit.acquire(record.hint.split(' ')[0] ?? '', MAX_TURN_WAIT_MS))) {
		// The host's turns are taken for a while: the same attempt later, not counted as one.
		await deps.store.updateQueued(key, (stored) =>
			stored?.attempts === delivery.attempts ? { ...stored, dueAt: deps.now() + MAX_TURN_WAIT_MS } : undefined,
		);
		signalQueued(deps.store);
		return 'putOff';
	}
	let result: AttemptResult;
	try {
		if (record.kid !== deps.sealer.kid) await resealWebhook(deps, record);
		result = await attemptDelivery(deps, record, delivery);
	} catch (error) {
		if (!(error instanceof RelinkNeededError)) throw error;
		// No configured secret opens the URL (LINK_SECRET changed without its previous one): nothing can be sent.
		deps.log.warn({ guildId: record.guildId, webhook: record.id }, 'webhook url unreadable');
		result = { kind: 'failed', status: null, failure: 'network', retryAfterMs: null };
	}
	await settle(deps, record, delivery, result);
	return 'attempted';
}

async function settle(deps: DeliveryDeps, record: WebhookRecord, delivery: QueuedDelivery, result: AttemptResult) {
	const now = deps.now();
	const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
	const attempts = delivery.attempts + 1;
	const last = result.kind === 'failed' && attempts > delays.length;
	const key = queueKey(delivery);
	if (result.status !== null && DISCORD_HOST.test(record.hint.split(' ')[0] ?? '')) deps.discordStatus?.(result.status);
	await deps.store.appendLog(delivery.guildId, delivery.webhookId, logEntryOf(result, delivery, now, last));
	const fields = { guildId: delivery.guildId, webhook: delivery.webhookId, event: delivery.eventId, attempts };
	if (result.kind === 'delivered') {
		deps.count?.(record.format, 'delivered');
		await deps.store.updateQueued(key, () => null);
		deps.log.info({ ...fields, status: result.status }, 'webhook delivered');
		return;
	}
	if (result.kind === 'failed' && !last) {
		deps.count?.(record.format, 'failed');
		const retryAfter = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
		const dueAt = now + Math.max(delays[attempts - 1]!, retryAfter);
		await deps.store.updateQueued(key, (stored) =>
			stored?.attempts === delivery.attempts ? { ...stored, attempts, dueAt, lastStatus: result.status } : undefined,
		);
		signalQueued(deps.store);
		deps.log.info({ ...fields, status: result.status, failure: result.failure, dueAt }, 'webhook retry due');
		return;
	}
	deps.count?.(record.format, 'disabled');
	await deps.store.updateQueued(key, () => null);
	const disabled: WebhookDisabled = {
		reason: result.kind === 'gone' ? 'gone' : 'retriesExhausted',
		at: now,
		status: result.status,
	};
	const stored = await deps.store.webhooks.update(record.guildId, record.id, (current) =>
		current && !current.disabled ? { ...current, disabled } : undefined,
	);
	deps.log.warn({ ...fields, status: result.status, reason: disabled.reason }, 'webhook disabled');
	if (stored?.disabled === disabled) await deps.onDisabled(stored).catch(() => undefined);
}
