// The bot for bench/stats.ts, alone in its own process so the Discord stand-in and the stats
// service (in the parent) do not share its event loop. Times what is not the bot's own work
// (the stats call and the chart) and answers the parent's questions over IPC.
import { Writable } from 'node:stream';
import { startBot } from '../src/app/start-bot.js';
import { loadConfig } from '../src/config.js';
import type { StatsClient } from '../src/stats-api/client.js';

export type ChildRequest = { type: 'timings' } | { type: 'stop' };
export interface ChildTimings {
	type: 'timings';
	upstreamMs: number;
	renderMs: number;
	upstreamRequests: number;
}

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const bot = await startBot(loadConfig(env), {
	logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});
const timed = { upstreamMs: 0, renderMs: 0 };

function timeCalls<A extends unknown[], R>(fn: (...args: A) => Promise<R>, add: (ms: number) => void) {
	return async (...args: A): Promise<R> => {
		const start = performance.now();
		try {
			return await fn(...args);
		} finally {
			add(performance.now() - start);
		}
	};
}

const stats = bot.ctx.stats as StatsClient;
stats.fetchSnapshot = timeCalls(stats.fetchSnapshot.bind(stats), (ms) => (timed.upstreamMs += ms));
const renderer = bot.ctx.renderer;
renderer.render = timeCalls(renderer.render.bind(renderer), (ms) => (timed.renderMs += ms));

process.on('message', (message: ChildRequest) => {
	if (message.type === 'timings') {
		const reply: ChildTimings = { type: 'timings', ...timed, upstreamRequests: stats.upstreamRequests };
		timed.upstreamMs = 0;
		timed.renderMs = 0;
		process.send?.(reply);
	} else if (message.type === 'stop') {
		void bot.stop().then(() => process.exit(0));
	}
});
// Measured once the chart worker has warmed up: the figures are the steady state, not the first seconds.
await bot.chartsWarmedUp;
process.send?.({ type: 'ready' });
