// The webhooks' services from the bot's context: the store, the sealer, the allow list, the resolver, the host
// limit and the audit line of a disabled webhook.
import { auditPause } from '../core/pause-to-audit.js';
import type { CoreContext } from '../core/core-context.js';
import { onePerStore } from '../core/record-store.js';
import { auditTime } from '../settings/audit.js';
import { parseAllowList, systemResolve, type AllowList, type Resolve } from './address-guard.js';
import { describeDisabled } from './describe-webhook.js';
import { createHostLimit, type HostLimit } from './host-limit.js';
import type { DeliveryDeps } from './webhook-delivery.js';
import { sealerOf } from './webhook-seal.js';
import { webhookStoreOf, type WebhookStoreContext } from './webhook-store.js';
import type { PostedEventContext } from './webhook-events.js';

/** What the webhooks use of the core's services; tests may add a resolver and shorter retries. */
export type WebhookContext = Pick<
	CoreContext,
	'stores' | 'coordinator' | 'config' | 'settings' | 'guildApi' | 'log' | 'now'
> & {
	metrics?: Pick<CoreContext['metrics'], 'webhookDeliveries' | 'recordDiscordRestResponse'>;
	/** Resolves a host to its addresses (default: the system's resolver). */
	webhookResolve?: Resolve;
	webhookRetryDelaysMs?: readonly number[];
	webhookTimeoutMs?: number;
};

const allowLists = new WeakMap<readonly string[], AllowList>();

export function allowListOf(ctx: Pick<WebhookContext, 'config'>): AllowList {
	const entries = ctx.config.webhookAllowHosts ?? [];
	let allow = allowLists.get(entries);
	if (!allow) {
		allow = parseAllowList(entries.join(','));
		allowLists.set(entries, allow);
	}
	return allow;
}

/** One host limit per opened store: every job and command of a process shares it. */
const hostLimitOf = onePerStore((_ctx: { stores: object }): HostLimit => createHostLimit());

export function deliveryDeps(ctx: WebhookContext, now: () => number = ctx.now ?? Date.now): DeliveryDeps {
	return {
		store: webhookStoreOf(ctx),
		sealer: sealerOf(ctx.config),
		allow: allowListOf(ctx),
		resolve: ctx.webhookResolve ?? systemResolve,
		hostLimit: hostLimitOf(ctx),
		claimOnce: async (key, ttlMs) => (await ctx.coordinator.claim(key, Math.ceil(ttlMs))).claimed,
		now,
		log: ctx.log,
		count: (format, outcome) => ctx.metrics?.webhookDeliveries.inc({ format, outcome }),
		discordStatus: (status) => ctx.metrics?.recordDiscordRestResponse(status),
		onDisabled: async (record) =>
			auditPause(ctx, record, (t) => ({
				key: 'webhook.audit.disabled',
				vars: {
					hint: record.hint,
					when: auditTime(record.disabled?.at ?? now()),
					reason: record.disabled ? describeDisabled(t, record.disabled) : '',
				},
			})),
		retryDelaysMs: ctx.webhookRetryDelaysMs,
		timeoutMs: ctx.webhookTimeoutMs,
	};
}

/** Queuing what the bot posted, from the bot's context. */
export function postedEventContext(
	ctx: WebhookStoreContext & {
		guildApi: Pick<CoreContext['guildApi'], 'guildName'>;
		links: Pick<CoreContext['links'], 'getServerLink'>;
		log: PostedEventContext['log'];
	},
	now: () => number,
): PostedEventContext {
	return {
		store: webhookStoreOf(ctx),
		now,
		guildName: async (guildId) => ctx.guildApi.guildName(guildId),
		serverAccount: async (guildId) => (await ctx.links.getServerLink(guildId))?.accountName ?? null,
		log: ctx.log,
	};
}
