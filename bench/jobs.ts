// `npm run bench -- jobs`: 4 bot processes on Redis spend one REST budget (40 a second) on 10,000 stat channels
// and 1,000 boards of 20,000 servers, against the Discord stand-in and its global limit of 50 a second, for
// 5 minutes (BENCH_JOBS_MINUTES shortens a try-out). The stat channels' and the boards' figure changes every
// minute, so every channel always has a rename to make and every board an edit: the budget, not the work, is
// the limit.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createClient } from '@redis/client';
import { startDiscordSandbox } from '../sandbox/index.js';
import type { BenchFigure } from './figures.js';
import type { JobsChildMessage, JobsChildOptions } from './jobs-child.js';
import { BOARD_SCHEMA_VERSION } from '../src/boards/board-record.js';
import { createBoardStore } from '../src/boards/board-store.js';
import { createKeyedMutex } from '../src/store/locks.js';
import { openStores } from '../src/store/open-stores.js';
import { createWatchStore } from '../src/watch/watch-store.js';
import { statChannelRecord } from '../test/watch/stat-channel-records.js';

const CHILD = new URL('./jobs-child.ts', import.meta.url).pathname;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVERS = 20_000;
const STAT_CHANNELS = 10_000;
const PROCESSES = 4;
const PER_SECOND = 40;
const EVERY_MINUTES = 5;
const BOARDS = 1_000;
// BOARD_MINUTES as short as the run, so a 5-minute run posts every board and then edits it: 10,000 renames and
// 1,000 board edits every 5 minutes ask 36.7 calls a second of the 40.
const BOARD_MINUTES = 5;

export async function runJobsBench(): Promise<BenchFigure[]> {
	const minutes = Number(process.env.BENCH_JOBS_MINUTES ?? 5);
	const prefix = `benchjobs${process.pid}-`;
	const sandbox = await startDiscordSandbox({ guildCount: SERVERS, channelsPerGuild: 1, validateSchema: false });
	const children: ChildProcess[] = [];
	try {
		const stores = await openStores(REDIS_URL, { namespacePrefix: prefix });
		const watch = createWatchStore(stores, createKeyedMutex());
		const servers = sandbox.guildIds.slice(0, STAT_CHANNELS);
		for (let i = 0; i < servers.length; i += 50) {
			await Promise.all(
				servers
					.slice(i, i + 50)
					.map(async (guildId) =>
						watch.statChannels.put(statChannelRecord(guildId, sandbox.guildChannelIds(guildId).at(-1) ?? '')),
					),
			);
		}
		// The boards live on servers without a stat channel, in the text channel (the stat channels take the voice one).
		const boards = createBoardStore(stores, createKeyedMutex());
		const boardServers = sandbox.guildIds.slice(STAT_CHANNELS, STAT_CHANNELS + BOARDS);
		for (let i = 0; i < boardServers.length; i += 50) {
			await Promise.all(
				boardServers.slice(i, i + 50).map(async (guildId) => {
					const channelId = sandbox.guildChannelIds(guildId)[0] ?? '';
					await boards.update(guildId, channelId, () => ({
						v: BOARD_SCHEMA_VERSION,
						guildId,
						channelId,
						days: 30,
						metric: 'sends',
						createdBy: '1',
						createdAt: Date.now(),
						guildLocale: 'en-US',
						paused: null,
						messageId: null,
						posts: 0,
						contentHash: null,
						updatedAt: null,
					}));
				}),
			);
		}
		await stores.close();
		const options: JobsChildOptions = {
			storeUrl: REDIS_URL,
			prefix,
			apiUrl: sandbox.apiUrl,
			token: sandbox.token,
			perSecond: PER_SECOND,
			processes: PROCESSES,
			everyMinutes: EVERY_MINUTES,
			boards: { everyMinutes: BOARD_MINUTES },
		};
		const done: Extract<JobsChildMessage, { done: unknown }>['done'][] = [];
		let renames = 0;
		const boardCalls = { posted: 0, edited: 0 };
		for (let index = 0; index < PROCESSES; index += 1) {
			const child = fork(CHILD, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'] });
			children.push(child);
			child.on('message', (message: JobsChildMessage) => {
				if ('renamed' in message) renames += 1;
				if ('board' in message) boardCalls[message.board] += 1;
				if ('done' in message) done.push(message.done);
			});
			await once(child, 'message');
		}
		for (const child of children) child.send({ start: true });
		await new Promise((resolve) => setTimeout(resolve, minutes * 60_000));
		for (const child of children) child.send({ stop: true });
		const deadline = Date.now() + 60_000;
		while (done.length < PROCESSES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
		const served = done.reduce((sum, child) => sum + (child.lateness?.served ?? 0), 0);
		const within = done.reduce((sum, child) => sum + (child.lateness?.servedWithin ?? 0), 0);
		const worst = Math.max(0, ...done.map((child) => child.lateness?.worstMs ?? 0));
		const boardServed = done.reduce((sum, child) => sum + (child.boardLateness?.served ?? 0), 0);
		const boardWithin = done.reduce((sum, child) => sum + (child.boardLateness?.servedWithin ?? 0), 0);
		const boardWorst = Math.max(0, ...done.map((child) => child.boardLateness?.worstMs ?? 0));
		const global429 = done.reduce((sum, child) => sum + child.global429, 0);
		const heap = Math.max(0, ...done.map((child) => child.heapUsed));
		const limit = sandbox.globalLimit;
		const label = `jobs: ${PROCESSES} processes, ${STAT_CHANNELS} stat channels, ${BOARDS} boards, ${minutes} min`;
		return [
			{
				name: `${label}: peak calls per second at the stand-in`,
				value: limit.peakPerSecond,
				unit: 'calls/s',
				baseline: PER_SECOND,
				goal: `≤ ${PER_SECOND * 1.1} (budget ${PER_SECOND} + 10 %; Discord refuses past 50)`,
				met: limit.peakPerSecond <= PER_SECOND * 1.1,
			},
			{ name: `${label}: global 429s`, value: global429, unit: '', baseline: null, goal: '0', met: global429 === 0 },
			{
				name: `${label}: refused requests`,
				value: limit.refused,
				unit: '',
				baseline: null,
				goal: '0',
				met: limit.refused === 0,
			},
			{
				name: `${label}: renames`,
				value: renames,
				unit: '',
				baseline: PER_SECOND * minutes * 60,
				goal: 'near the budget (baseline: 40/s × run)',
				met: null,
			},
			{
				name: `${label}: stat channel turns served within their interval`,
				value: served === 0 ? 0 : (100 * within) / served,
				unit: '%',
				baseline: null,
				goal: `10,000 renames and 1,000 board edits need 275 s at 40/s: all within ${EVERY_MINUTES} min`,
				met: served > 0 && within === served,
			},
			{
				name: `${label}: stat channels' worst lateness`,
				value: worst / 1000,
				unit: 's',
				baseline: null,
				goal: `< ${EVERY_MINUTES * 60} s`,
				met: worst < EVERY_MINUTES * 60_000,
			},
			{
				name: `${label}: boards posted`,
				value: boardCalls.posted,
				unit: '',
				baseline: BOARDS,
				goal: 'each board posted once (baseline: the boards)',
				met: boardCalls.posted === BOARDS,
			},
			{
				name: `${label}: boards edited`,
				value: boardCalls.edited,
				unit: '',
				baseline: null,
				goal: `each posted board edited once per ${BOARD_MINUTES} min after its post`,
				met: null,
			},
			{
				name: `${label}: board turns served within their interval`,
				value: boardServed === 0 ? 0 : (100 * boardWithin) / boardServed,
				unit: '%',
				baseline: null,
				goal: `all within BOARD_MINUTES=${BOARD_MINUTES}`,
				met: boardServed > 0 && boardWithin === boardServed,
			},
			{
				name: `${label}: boards' worst lateness`,
				value: boardWorst / 1000,
				unit: 's',
				baseline: null,
				goal: `< ${BOARD_MINUTES * 60} s`,
				met: boardWorst < BOARD_MINUTES * 60_000,
			},
			{
				name: `${label}: heap per process (max)`,
				value: heap / 1024 / 1024,
				unit: 'MiB',
				baseline: null,
				goal: 'reported',
				met: null,
			},
		];
	} finally {
		for (const child of children) if (child.exitCode === null) child.kill();
		await sandbox.close();
		const client = createClient({ url: REDIS_URL });
		await client.connect();
		for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 }))
			if (keys.length > 0) await client.del(keys);
		client.destroy();
	}
}
