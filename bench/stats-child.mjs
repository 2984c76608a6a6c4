// The bot for bench/stats.ts, alone in its own process so the Discord stand-in and the stats
// service (in the parent) do not share its event loop, and run as `npm start` runs it: from the
// bundle, in plain JavaScript. Times what is not the bot's own work (the stats call and the chart)
// and answers the parent's questions over IPC (ChildRequest and ChildTimings in bench/stats.ts).
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { startBot } from '../dist/start-bot.js';
import { loadConfig } from '../dist/config.js';

const env = JSON.parse(process.argv[2] ?? '{}');
const bot = await startBot(loadConfig(env), {
	logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});
const timed = { upstreamMs: 0, renderMs: 0 };

function timeCalls(fn, add) {
	return async (...args) => {
		const start = performance.now();
		try {
			return await fn(...args);
		} finally {
			add(performance.now() - start);
		}
	};
}

const stats = bot.ctx.stats;
stats.fetchSnapshot = timeCalls(stats.fetchSnapshot.bind(stats), (ms) => (timed.upstreamMs += ms));
const renderer = bot.ctx.renderer;
renderer.render = timeCalls(renderer.render.bind(renderer), (ms) => (timed.renderMs += ms));

process.on('message', (message) => {
	if (message.type === 'timings') {
		const { user, system } = process.cpuUsage();
		const reply = { type: 'timings', ...timed, upstreamRequests: stats.upstreamRequests, cpuMicros: user + system };
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
