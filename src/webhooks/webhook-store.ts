// Webhooks, their queued deliveries and their logs, on the one record store (the `watch` namespace).
import type { Config } from '../config.js';
import type { Coordinator } from '../core/claims.js';
import {
	createRecordStore,
	onePerStore,
	recordLock,
	recordTable,
	type RecordStore,
	type RecordTable,
} from '../core/record-store.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import {
	DELIVERY_LOG_LENGTH,
	logKey,
	parseDeliveryLog,
	parseQueuedDelivery,
	parseWebhook,
	queueKey,
	queuePrefix,
	RECORD_VERSION,
	webhookKey,
	webhookPrefix,
	type DeliveryLogEntry,
	type QueuedDelivery,
	type WebhookRecord,
} from './webhook-record.js';

export interface WebhookStore {
	webhooks: RecordTable<WebhookRecord>;
	/** Every queued delivery (all servers), or one webhook's. */
	queued(guildId?: string, webhookId?: string): AsyncGenerator<QueuedDelivery>;
	getQueued(key: string): Promise<QueuedDelivery | null>;
	putQueued(delivery: QueuedDelivery): Promise<void>;
	updateQueued(
		key: string,
		change: (delivery: QueuedDelivery | null) => QueuedDelivery | null | undefined,
	): Promise<QueuedDelivery | null>;
	/** The webhook's last deliveries, newest first. */
	log(guildId: string, webhookId: string): Promise<DeliveryLogEntry[]>;
	appendLog(guildId: string, webhookId: string, entry: DeliveryLogEntry): Promise<void>;
	removeLog(guildId: string, webhookId: string): Promise<void>;
	/** Runs `fn` under the server's webhook lock (the limit of 5 across processes). */
	withServerLock<T>(guildId: string, fn: () => Promise<T>): Promise<T>;
}

export interface WebhookStoreContext {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
}

export const webhookStoreOf = onePerStore((ctx: WebhookStoreContext): WebhookStore => {
	const lock = recordLock(ctx);
	const webhookRecords = createRecordStore(ctx.stores, lock, { namespace: WATCH_NAMESPACE, parse: parseWebhook });
	const queue: RecordStore<QueuedDelivery> = createRecordStore(ctx.stores, lock, {
		namespace: WATCH_NAMESPACE,
		parse: parseQueuedDelivery,
	});
	const logs = createRecordStore(ctx.stores, lock, { namespace: WATCH_NAMESPACE, parse: parseDeliveryLog });
	return {
		webhooks: recordTable(webhookRecords, {
			key: webhookKey,
			prefix: webhookPrefix,
			id: (record) => record.id,
		}),
		queued: (guildId, webhookId) => queue.list(queuePrefix(guildId, webhookId)),
		getQueued: async (key) => queue.get(key),
		putQueued: async (delivery) => queue.put(queueKey(delivery), delivery),
		updateQueued: async (key, change) => queue.update(key, change),
		log: async (guildId, webhookId) => (await logs.get(logKey(guildId, webhookId)))?.entries ?? [],
		appendLog: async (guildId, webhookId, entry) => {
			await logs.update(logKey(guildId, webhookId), (current) => ({
				v: RECORD_VERSION,
				guildId,
				webhookId,
				entries: [entry, ...(current?.entries ?? [])].slice(0, DELIVERY_LOG_LENGTH),
			}));
		},
		removeLog: async (guildId, webhookId) => {
			await logs.remove(logKey(guildId, webhookId));
		},
		withServerLock: async (guildId, fn) => webhookRecords.withLock(`${webhookPrefix(guildId)}limit`, fn),
	};
});
