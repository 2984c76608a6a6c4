// One bot process of test/privacy/left-servers-across-processes.test.ts: it opens the bot's services on the shared
// store the parent names, waits for "go", then runs the real left-servers job on a clock stopped where the parent put
// it, and tells the parent over IPC every purge claim it tried and every server it purged.
//
// Parent → child: { setup }, { go: startAt }, { proceed: guildId }, { stop: true }.
// Child → parent: { ready: true }, { asking: guildId }, { claim: { key, won } }, { purged: guildId },
// { done: true, lines } (its log lines about servers).
import { leftServerJobDeps } from '../../src/app/left-servers.js';
import { openBotServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config.js';
import { createPeriodicRunner, type Clock } from '../../src/core/periodic-runner.js';
import { createLogger } from '../../src/logger.js';
import { leftServerJob, type LeftServerJobDeps } from '../../src/privacy/left-server-job.js';

export interface LeftProcessSetup {
	/** The run's environment (STORE_URL, LINK_SECRET, the stand-in's URL and token…): the parent's config. */
	env: Record<string, string>;
	namespacePrefix: string | undefined;
	/** Where the injected clock stands (epoch ms). */
	now: number;
}

type ParentMessage = { setup: LeftProcessSetup } | { go: number } | { proceed: string } | { stop: true };

const send = async (message: object) =>
	new Promise<void>((resolve, reject) =>
		process.send?.(message, (error: Error | null) => (error ? reject(error) : resolve())),
	);

const waiting = new Map<string, (() => void)[]>();
let setupGiven = (_setup: LeftProcessSetup) => undefined as void;
let goGiven = (_startAt: number) => undefined as void;
let stopGiven = () => undefined as void;
const setupMessage = new Promise<LeftProcessSetup>((resolve) => (setupGiven = resolve));
const goMessage = new Promise<number>((resolve) => (goGiven = resolve));
const stopMessage = new Promise<void>((resolve) => (stopGiven = resolve));
process.on('message', (message: ParentMessage) => {
	if ('setup' in message) setupGiven(message.setup);
	else if ('go' in message) goGiven(message.go);
	else if ('stop' in message) stopGiven();
	else if ('proceed' in message) for (const release of waiting.get(message.proceed)?.splice(0) ?? []) release();
});

const setup = await setupMessage;
const lines: string[] = [];
const log = createLogger('debug', {
	write: (line: string) => {
		if (line.includes('"msg":"server')) lines.push(line);
	},
});
const services = await openBotServices(loadConfig(setup.env, 'bot'), log, {
	namespacePrefix: setup.namespacePrefix,
});

/** Stopped where the parent put it; a turn's wait of a minute takes 50 ms of real time. */
const clock: Clock = {
	now: () => setup.now,
	setTimer: (fn, ms) => {
		const timer = setTimeout(fn, Math.min(ms, 50));
		return () => clearTimeout(timer);
	},
};

const real = leftServerJobDeps(services.ctx, clock.now);
const deps: LeftServerJobDeps = {
	...real,
	// The parent lets both processes ask Discord about a server together, so they reach its claim together.
	presence: async (guildId) => {
		const released = new Promise<void>((resolve) => waiting.set(guildId, [...(waiting.get(guildId) ?? []), resolve]));
		await send({ asking: guildId });
		await released;
		return real.presence(guildId);
	},
	claimOnce: async (key, ttlMs) => {
		const won = await real.claimOnce(key, ttlMs);
		await send({ claim: { key, won } });
		return won;
	},
	log: {
		info: (fields, message) => {
			real.log.info(fields, message);
			if (message === 'server data purged') void send({ purged: (fields as { guildId: string }).guildId });
		},
		warn: (fields, message) => real.log.warn(fields, message),
	},
};
const runner = createPeriodicRunner(leftServerJob(deps), clock);

await send({ ready: true });
const startAt = await goMessage;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
runner.start();
await stopMessage;
await runner.stop();
await services.close();
await send({ done: true, lines });
process.disconnect();
