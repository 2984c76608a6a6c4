// `npm run links -- reseal | check` cover the webhooks too: their URL and signing secret are sealed under
// LINK_SECRET like a key, so a host who reseals after a rotation and then drops LINK_SECRET_PREVIOUS must not lose
// the webhooks that did not deliver in between (a delivery reseals only the webhook it sends to).
import type { Config } from '../config.js';
import { resealWebhook, openWebhook } from './webhook-delivery.js';
import { webhookKey, type WebhookRecord } from './webhook-record.js';
import { sealerOf, type Sealer } from './webhook-seal.js';
import { webhookStoreOf, type WebhookStoreContext } from './webhook-store.js';

export interface WebhookSealContext extends WebhookStoreContext {
	config: Pick<Config, 'storeUrl' | 'linkSecret' | 'linkSecretPrevious'>;
}

function opens(sealer: Sealer, record: WebhookRecord): boolean {
	try {
		openWebhook(sealer, record);
		return true;
	} catch {
		return false;
	}
}

/** Opens every webhook with the configured secrets: how many open, and the store keys of those that do not. */
export async function checkWebhooks(ctx: WebhookSealContext): Promise<{ readable: number; unreadable: string[] }> {
	const sealer = sealerOf(ctx.config);
	const result = { readable: 0, unreadable: [] as string[] };
	for await (const record of webhookStoreOf(ctx).webhooks.listAll()) {
		if (opens(sealer, record)) result.readable += 1;
		else result.unreadable.push(webhookKey(record.guildId, record.id));
	}
	return result;
}

/**
 * Seals every webhook under LINK_SECRET that another secret sealed, under its lock and only when unchanged since it
 * was read (a webhook rewritten meanwhile was sealed by its writer's current secret). Resumable like the links'.
 */
export async function resealWebhooks(
	ctx: WebhookSealContext,
): Promise<{ resealed: number; alreadyCurrent: number; unreadable: number }> {
	const sealer = sealerOf(ctx.config);
	const store = webhookStoreOf(ctx);
	const counts = { resealed: 0, alreadyCurrent: 0, unreadable: 0 };
	for await (const record of store.webhooks.listAll()) {
		if (!opens(sealer, record)) counts.unreadable += 1;
		else if (record.kid === sealer.kid) counts.alreadyCurrent += 1;
		else {
			await resealWebhook({ sealer, store }, record);
			counts.resealed += 1;
		}
	}
	return counts;
}
