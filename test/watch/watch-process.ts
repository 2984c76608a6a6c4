// One bot process's watchers (stat channels and alerts) on a shared store, with its own hand-moved clock: waits
// for "go", runs from `start` to `end`, and reports every rename and post it sent.
import type { BotContext } from '../../src/discord/context.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { startWatchers } from '../../src/watch/watch-context.js';
import type { LinkedKey, LinkStore } from '../../src/links/link-model.js';
import { ManualClock } from '../reports/manual-clock.js';
import { snapshotOf } from './support.js';

const [storeUrl = '', prefix = '', start = '0', end = '0'] = process.argv.slice(2);
// Two loops share the clock: the stat channel refresh and the alert checks.
const clock = new ManualClock(Number(start), 2);
const stores = await openStores(storeUrl, { namespacePrefix: prefix });
const coordinator = await openCoordinator(storeUrl, { namespacePrefix: prefix, now: clock.now });
const send = async (message: object) => new Promise<void>((resolve) => process.send?.(message, () => resolve()));

const info = { accountName: 'acme', linkedAt: 0, verified: true, linkedBy: null, keyHint: '0000', readable: true };
const links = {
	getServerLink: async () => info,
	getServerKey: async (): Promise<LinkedKey> => ({ apiKey: 'server-key-000000000000000', info }),
} as unknown as LinkStore;

const ctx = {
	config: { storeUrl, statChannelMinutes: 5, alertCheckMinutes: 5, historyDays: 400 } as BotContext['config'],
	links,
	stats: {
		fetchSnapshot: async () => ({
			snapshot: snapshotOf({ generatedAt: new Date(clock.now()).toISOString(), sendsAllTime: 4321 }),
			fetchedAt: clock.now(),
			isStale: false,
		}),
	},
	renderer: { name: 'none', render: async () => null, close: async () => undefined },
	history: { read: async () => null, record: async () => null } as unknown as BotContext['history'],
	coordinator,
	stores,
	cooldowns: {} as BotContext['cooldowns'],
	settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }),
	guildApi: {
		postMessage: async (channelId, _message, options) =>
			send({ post: { channelId, nonce: options?.nonce, at: clock.now() } }),
		renameChannel: async (channelId, name) => send({ rename: { channelId, name, at: clock.now() } }),
		roleState: async () => 'exists',
		channelState: async () => 'exists',
		channelPermissions: async () => 0n,
	},
	log: createLogger('silent'),
	metrics: createMetrics({ commands: [], collectDefault: false }),
} satisfies BotContext;

await send({ ready: true });
process.once('message', async ({ startAt }: { startAt: number }) => {
	// Both processes start at the same wall-clock moment, so their claims overlap.
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
	const watchers = startWatchers(ctx, clock);
	await clock.runUntil(Number(end));
	await watchers.stop();
	await coordinator.close();
	await stores.close();
	await send({ done: true });
	process.disconnect();
});
