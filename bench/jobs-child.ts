// One bot process's stat-channel job on a shared store, against the Discord stand-in, on the real clock: the
// REST path is the bot's own (createBotRest with the store's budget, botGuildApi, the spread scheduler); only the
// stats endpoint is replaced by a figure that changes every minute. With `boards` it also runs the board job on
// the same REST path, its post builder replaced the same way (an embed whose figure changes every minute and a
// tiny real PNG, so each edit uploads a file as a real board's does). Used by `npm run bench -- jobs` and by
// test/periodic/rest-budget-processes.test.ts (without boards). Arguments: one JSON object (JobsChildOptions).
import { Routes } from 'discord.js';
import { BOARD_JOB, boardJob } from '../src/boards/board-job.js';
import { boardPostHash } from '../src/boards/board-post.js';
import { createBoardStore } from '../src/boards/board-store.js';
import type { ChannelMessage } from '../src/message.js';
import { botGuildApi, createBotRest, createInteractionRest } from '../src/discord/bot-rest.js';
import { openRestBudget } from '../src/discord/rest-budget.js';
import { createLogger } from '../src/logger.js';
import { restBudgetMetrics } from '../src/metrics/rest-budget-metrics.js';
import { createPeriodicRunner, jobLateness, realClock } from '../src/core/periodic-runner.js';
import { claimLock, claimOnce, openCoordinator } from '../src/core/claims.js';
import { openStores } from '../src/store/open-stores.js';
import { statChannelJob, STAT_CHANNEL_JOB } from '../src/watch/stat-channel-job.js';
import { createWatchStore } from '../src/watch/watch-store.js';
import type { StatsSnapshot } from '../src/stats-api/snapshot.js';
import { snapshotOf } from '../test/watch/support.js';

export interface JobsChildOptions {
	storeUrl: string;
	prefix: string;
	apiUrl: string;
	token: string;
	perSecond: number;
	processes: number;
	everyMinutes: number;
	/** Runs the board job too, every `everyMinutes` (BOARD_MINUTES); off when absent. */
	boards?: { everyMinutes: number };
}

/** What the child tells its parent. */
export type JobsChildMessage =
	| { ready: true }
	| { renamed: { channelId: string; at: number } }
	| { board: 'posted' | 'edited' }
	| { answered: { kind: 'callback' | 'followUp'; ms: number; status: 'ok' | 'failed' } }
	| {
			done: {
				heapUsed: number;
				global429: number;
				lateness: ReturnType<typeof jobLateness>;
				boardLateness: ReturnType<typeof jobLateness>;
			};
	  };

const options = JSON.parse(process.argv[2] ?? '{}') as JobsChildOptions;
const send = async (message: JobsChildMessage) =>
	new Promise<void>((resolve) => process.send?.(message, () => resolve()));

const stores = await openStores(options.storeUrl, { namespacePrefix: options.prefix });
const coordinator = await openCoordinator(options.storeUrl, { namespacePrefix: options.prefix });
const budget = await openRestBudget(options.storeUrl, {
	perSecond: options.perSecond,
	processes: options.processes,
	namespacePrefix: options.prefix,
});
const config = { discordApiUrl: options.apiUrl, discordToken: options.token };
const rest = createBotRest(config, budget);
const guildApi = botGuildApi(rest);
const interactionRest = createInteractionRest(config);
const startedAt = Date.now();
// The figure changes every minute, so every channel always has a rename to make.
const snapshot = (): StatsSnapshot =>
	snapshotOf({
		generatedAt: new Date().toISOString(),
		sendsAllTime: 1000 + Math.floor((Date.now() - startedAt) / 60_000),
	});

const log = createLogger('silent');
const watcher = createPeriodicRunner(
	statChannelJob({
		deps: {
			watch: createWatchStore(stores, claimLock(coordinator)),
			fetchServerSnapshot: async () => snapshot(),
			language: async () => 'en-US',
			renameChannel: async (channelId, name) => {
				await guildApi.renameChannel(channelId, name);
				await send({ renamed: { channelId, at: Date.now() } });
			},
			onPause: async () => undefined,
			now: realClock.now,
			log,
		},
		claimOnce: claimOnce(coordinator),
		everyMs: options.everyMinutes * 60_000,
	}),
	realClock,
);

// A 1×1 PNG: a real image for the stand-in to read, at no rendering cost to the processes under test.
const BOARD_CHART = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);
const boardMessage = (): ChannelMessage => ({
	content: 'This board is kept up to date by the bot.',
	embeds: [
		{
			title: 'Server stats',
			fields: [{ name: 'Sends', value: String(snapshot().sends.allTime) }],
			image: { url: 'attachment://chart.png' },
		},
	],
	files: [{ name: 'chart.png', data: BOARD_CHART, contentType: 'image/png' }],
});
const boards =
	options.boards &&
	createPeriodicRunner(
		boardJob(
			{
				boards: createBoardStore(stores, claimLock(coordinator)),
				buildPost: async () => {
					const message = boardMessage();
					return { message, hash: boardPostHash(message) };
				},
				guildApi: {
					createMessage: async (channelId, message, createOptions) => {
						const id = await guildApi.createMessage(channelId, message, createOptions);
						await send({ board: 'posted' });
						return id;
					},
					editMessage: async (channelId, messageId, message) => {
						await guildApi.editMessage(channelId, messageId, message);
						await send({ board: 'edited' });
					},
					messageState: async (channelId, messageId) => guildApi.messageState(channelId, messageId),
				},
				claim: async (key, ttlMs) => coordinator.claim(key, Math.ceil(ttlMs)),
				onPause: async () => undefined,
				now: realClock.now,
				log,
			},
			options.boards.everyMinutes * 60_000,
		),
		realClock,
	);

/** Answers an interaction as the bot does: the callback on the interaction client, a follow-up on the bot's. */
async function answer(id: string, token: string, applicationId: string): Promise<void> {
	const timed = async (kind: 'callback' | 'followUp', call: () => Promise<unknown>) => {
		const started = performance.now();
		const status = await call().then(
			() => 'ok' as const,
			() => 'failed' as const,
		);
		await send({ answered: { kind, ms: performance.now() - started, status } });
	};
	await timed('callback', async () =>
		interactionRest.post(Routes.interactionCallback(id, token), { body: { type: 5 }, auth: false }),
	);
	await timed('followUp', async () =>
		rest.post(Routes.webhook(applicationId, token), { body: { content: 'figures' }, auth: false }),
	);
}

process.on(
	'message',
	(message: { start?: true; stop?: true; interaction?: { id: string; token: string; app: string } }) => {
		if (message.start) {
			watcher.start();
			boards?.start();
		}
		if (message.interaction) void answer(message.interaction.id, message.interaction.token, message.interaction.app);
		if (message.stop) {
			void (async () => {
				await Promise.all([watcher.stop(), boards?.stop()]);
				await send({
					done: {
						heapUsed: process.memoryUsage().heapUsed,
						global429: await restBudgetMetrics().global429Count(),
						lateness: jobLateness(STAT_CHANNEL_JOB),
						boardLateness: jobLateness(BOARD_JOB),
					},
				});
				await budget.close();
				await coordinator.close();
				await stores.close();
				process.disconnect();
			})();
		}
	},
);
await send({ ready: true });
