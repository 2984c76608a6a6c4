// One bot process's watchers (stat channels and alerts) on a shared store, on a fast clock: waits for "go", runs
// from `start` to `end` with time 600 times faster than real, and reports every rename and post it sent. Every
// process's clock starts at the same wall-clock moment and runs at the same speed, so the processes agree on the
// time within a few seconds of simulated time, as real hosts' clocks do (a clock per process that jumps from
// timer to timer would drift minutes apart from the other's).
import type { BotContext } from '../../src/discord/context.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { startWatchers } from '../../src/watch/watch-context.js';
import type { LinkedKey, LinkStore } from '../../src/links/link-model.js';
import { snapshotOf } from './support.js';

// mode `dies`: the process claims a firing, says so, and never posts (the test then kills it).
const [storeUrl = '', prefix = '', start = '0', end = '0', mode = 'normal'] = process.argv.slice(2);
const SPEED = 600;
let origin = Number.POSITIVE_INFINITY;
const clock = {
	now: () => Number(start) + Math.max(0, Date.now() - origin) * SPEED,
	setTimer: (fn: () => void, ms: number) => {
		const timer = setTimeout(fn, Math.max(0, ms) / SPEED);
		return () => clearTimeout(timer);
	},
};
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
			snapshot: snapshotOf({
				generatedAt: new Date(clock.now()).toISOString(),
				sendsAllTime: 4321,
				// Changes every simulated minute.
				sendsToday: Math.floor((clock.now() - Number(start)) / 60_000),
			}),
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
		guildName: async () => 'Watch Guild',
		describeChannel: async () => ({ state: 'exists', name: 'watched' }),
		postMessage: async (channelId, _message, options) => {
			if (mode === 'dies') {
				await send({ claimed: true });
				await new Promise(() => undefined);
			}
			await send({ post: { channelId, nonce: options?.nonce, at: clock.now() } });
		},
		renameChannel: async (channelId, name) => send({ rename: { channelId, name, at: clock.now() } }),
		createMessage: async () => '0',
		editMessage: async () => undefined,
		messageState: async () => 'exists',
		sendDirectMessage: async () => undefined,
		roleState: async () => 'exists',
		describeRole: async () => ({ state: 'exists', managed: false }),
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
	origin = startAt;
	const watchers = startWatchers(ctx, clock);
	await new Promise((resolve) => setTimeout(resolve, (Number(end) - Number(start)) / SPEED));
	await watchers.stop();
	await coordinator.close();
	await stores.close();
	await send({ done: true });
	process.disconnect();
});
