// One bot process's alert watcher on a shared store, on a fast clock, with the server's goals: waits for "go", runs
// from `start` to `end` with time 600 times faster than real, and reports every post it sent (as the
// test/watch/watch-process.ts model does). Sends today grow by 10 a simulated minute over 30 days of 100 a day.
import type { BotContext } from '../../src/discord/context.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { startWatchers } from '../../src/watch/watch-context.js';
import type { LinkedKey, LinkStore } from '../../src/links/link-model.js';
import { snapshotOf } from '../watch/support.js';

const [storeUrl = '', prefix = '', start = '0', end = '0'] = process.argv.slice(2);
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

function breakdown(now: number): Record<string, number> {
	const today = utcDateOf(now);
	const days: Record<string, number> = {};
	for (let back = 29; back >= 1; back -= 1) days[addDays(today, -back)] = 100;
	days[today] = 10 * Math.floor((now - Number(start)) / 60_000);
	return days;
}

const ctx = {
	config: { storeUrl, statChannelMinutes: 5, alertCheckMinutes: 5, historyDays: 400 } as BotContext['config'],
	links,
	stats: {
		fetchSnapshot: async () => {
			const now = clock.now();
			const days = breakdown(now);
			return {
				snapshot: snapshotOf({
					generatedAt: new Date(now).toISOString(),
					sendsToday: days[utcDateOf(now)] ?? 0,
					sendsAllTime: 5000,
					breakdown: days,
				}),
				fetchedAt: now,
				isStale: false,
			};
		},
	},
	renderer: { name: 'none', render: async () => null, close: async () => undefined },
	history: { read: async () => null, record: async () => null } as unknown as BotContext['history'],
	coordinator,
	stores,
	cooldowns: {} as BotContext['cooldowns'],
	settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }),
	guildApi: {
		guildName: async () => 'Goal Guild',
		describeChannel: async () => ({ state: 'exists', name: 'watched' }),
		postMessage: async (channelId, message, options) => {
			const description = message.embeds?.[0]?.description ?? '';
			await send({ post: { channelId, nonce: options?.nonce, at: clock.now(), description } });
		},
		renameChannel: async () => undefined,
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
