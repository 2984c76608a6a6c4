// One bot process's background jobs on a shared store, with its own hand-moved clock: waits for "go", runs
// the report scheduler or the history sampler from `start` to `end`, and reports every post or sample.
import { createKeyedMutex } from '../../src/store/locks.js';
import type { BotContext } from '../../src/discord/context.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import { startHistorySampler } from '../../src/app/background-jobs.js';
import { createLinkStore } from '../../src/links/link-store.js';
import type { LinkedKey, LinkStore } from '../../src/links/link-model.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createLogger } from '../../src/logger.js';
import { startBackgroundJobs } from '../../src/app/background-jobs.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { openStores } from '../../src/store/open-stores.js';
import { makeSnapshot } from '../history/snapshots.js';
import { ManualClock } from './manual-clock.js';

const [mode = '', storeUrl = '', prefix = '', start = '0', end = '0', secretHex = ''] = process.argv.slice(2);
const secret = Buffer.from(secretHex, 'hex');
// The background jobs run four loops here: the report scan, the daily history prune, the purge of servers the bot
// left and the webhooks' queue (the watch jobs are off).
const clock = new ManualClock(Number(start), mode === 'sampler' ? 1 : 4);
const stores = await openStores(storeUrl, { namespacePrefix: prefix });
const coordinator = await openCoordinator(storeUrl, { namespacePrefix: prefix, now: clock.now });
const send = async (message: object) => new Promise<void>((resolve) => process.send?.(message, () => resolve()));

const snapshot = makeSnapshot({ generatedAt: new Date(Number(start)).toISOString(), breakdown: { '2026-11-23': 5 } });
const serverLinks = {
	getServerKey: async (): Promise<LinkedKey> => ({
		apiKey: 'server-key-000000000000000',
		info: { accountName: 'acme', linkedAt: 0, verified: true, linkedBy: null, keyHint: '0000' },
	}),
} as unknown as LinkStore;

const ctx = {
	config: {
		historySampling: mode === 'sampler',
		historySamplePerMinute: 600,
		historyDays: 400,
		linkSecret: secret,
	} as BotContext['config'],
	links:
		mode === 'sampler'
			? createLinkStore({ keyv: stores.links, secret, verifyKey: async () => ({ accountName: 'acme' }) })
			: serverLinks,
	stats: {
		fetchSnapshot: async (apiKey: string) => {
			if (mode === 'sampler') await send({ sample: { apiKey, at: clock.now() } });
			return { snapshot, fetchedAt: clock.now(), isStale: false };
		},
	},
	renderer: { name: 'none', render: async () => null, close: async () => undefined },
	history: { record: async () => undefined } as unknown as BotContext['history'],
	coordinator,
	stores,
	cooldowns: {} as BotContext['cooldowns'],
	settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }),
	guildApi: { guildName: async () => null } as Partial<BotContext['guildApi']> as BotContext['guildApi'],
	log: createLogger('silent'),
	metrics: createMetrics({ commands: [], collectDefault: false }),
} satisfies BotContext;

await send({ ready: true });
process.once('message', async ({ startAt }: { startAt: number }) => {
	// Both processes start at the same wall-clock moment, so their claims overlap.
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
	const jobs =
		mode === 'sampler'
			? startHistorySampler(ctx, clock)
			: startBackgroundJobs(ctx, {
					clock,
					rescanMs: 10 * 60_000,
					watch: false,
					postMessage: async (channelId, _message, options) =>
						send({ post: { channelId, nonce: options?.nonce, at: clock.now() } }),
				});
	await clock.runUntil(Number(end));
	await jobs?.stop();
	await coordinator.close();
	await stores.close();
	await send({ done: true });
	process.disconnect();
});
