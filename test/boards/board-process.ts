// One bot process's board refresh on a shared store, against the Discord stand-in the test runs, on a fast clock:
// waits for "go", runs from `start` to `end` with time 600 times faster than real, and reports every post and edit
// it sent. As in test/watch/watch-process.ts, every process's clock starts at the same wall-clock moment.
import type { BoardContext } from '../../src/boards/board-context.js';
import { boardDeps, boardJob } from '../../src/boards/board-job.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import { createHistoryStore } from '../../src/history/history-store.js';
import type { LinkedKey, LinkStore } from '../../src/links/link-model.js';
import { createLogger } from '../../src/logger.js';
import { createPeriodicRunner, startAll } from '../../src/core/periodic-runner.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import { createKeyedMutex, openCoordinator } from '../../src/core/claims.js';
import { openStores } from '../../src/store/open-stores.js';
import { TINY_PNG } from '../sandbox/test-bot.js';
import { snapshotOf } from '../watch/support.js';

// mode `dies`: the process posts and edits as usual until its second edit, which it announces and never sends
// (the test then kills it).
const [storeUrl = '', prefix = '', start = '0', end = '0', apiUrl = '', token = '', mode = 'normal'] =
	process.argv.slice(2);
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
const history = createHistoryStore({ keyv: stores.history, now: clock.now });
const rest = botGuildApi(createBotRest({ discordApiUrl: apiUrl, discordToken: token }));
let edits = 0;

const ctx: BoardContext = {
	config: { storeUrl, historyDays: 400, boardMinutes: 5 },
	links,
	stats: {
		fetchSnapshot: async () => {
			const snapshot = snapshotOf({
				generatedAt: new Date(clock.now()).toISOString(),
				sendsAllTime: 4321,
				// Changes every simulated minute, so every refresh has something to edit.
				sendsToday: Math.floor((clock.now() - Number(start)) / 60_000),
				breakdown: { '2026-11-22': 120, '2026-11-21': 130 },
			});
			return { snapshot, fetchedAt: clock.now(), isStale: false };
		},
	},
	renderer: { name: 'local', render: async () => TINY_PNG, close: async () => undefined },
	history,
	coordinator,
	stores,
	settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }),
	guildApi: {
		...rest,
		createMessage: async (channelId, message, options) => {
			const id = await rest.createMessage(channelId, message, options);
			await send({ post: { channelId, id, at: clock.now() } });
			return id;
		},
		editMessage: async (channelId, messageId, message) => {
			edits += 1;
			if (mode === 'dies' && edits === 2) {
				await send({ editing: true });
				await new Promise(() => undefined);
			}
			await rest.editMessage(channelId, messageId, message);
			await send({ edit: { channelId, id: messageId, at: clock.now() } });
		},
	},
	log: createLogger(process.env.BOARD_LOG === '1' ? 'info' : 'silent'),
	now: clock.now,
};

await send({ ready: true });
process.once('message', async ({ startAt }: { startAt: number }) => {
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
	origin = startAt;
	const runners = startAll([
		createPeriodicRunner(boardJob(boardDeps(ctx, clock.now), ctx.config.boardMinutes * 60_000), clock),
	]);
	await new Promise((resolve) => setTimeout(resolve, (Number(end) - Number(start)) / SPEED));
	await runners.stop();
	await coordinator.close();
	await stores.close();
	await send({ done: true });
	process.disconnect();
});
