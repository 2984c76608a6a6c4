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
import { createPeriodicRunner } from '../../src/core/periodic-runner.js';
import { createLogger } from '../../src/logger.js';
import { leftServerJob, type LeftServerJobDeps } from '../../src/privacy/left-server-job.js';
import { listenToParent, parentClock, runUntilStopped, sendToParent } from '../core/job-child.js';

export interface LeftProcessSetup {
	/** The run's environment (STORE_URL, LINK_SECRET, the stand-in's URL and token…): the parent's config. */
	env: Record<string, string>;
	namespacePrefix: string | undefined;
	/** Where the injected clock stands (epoch ms). */
	now: number;
}

const waiting = new Map<string, (() => void)[]>();
const parent = listenToParent<LeftProcessSetup, { proceed: string }>((message) => {
	for (const release of waiting.get(message.proceed)?.splice(0) ?? []) release();
});
const setup = await parent.setup;
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
const clock = parentClock(() => setup.now);

const real = leftServerJobDeps(services.ctx, clock.now);
const deps: LeftServerJobDeps = {
	...real,
	// The parent lets both processes ask Discord about a server together, so they reach its claim together.
	presence: async (guildId) => {
		const released = new Promise<void>((resolve) => waiting.set(guildId, [...(waiting.get(guildId) ?? []), resolve]));
		await sendToParent({ asking: guildId });
		await released;
		return real.presence(guildId);
	},
	claimOnce: async (key, ttlMs) => {
		const won = await real.claimOnce(key, ttlMs);
		await sendToParent({ claim: { key, won } });
		return won;
	},
	log: {
		info: (fields, message) => {
			real.log.info(fields, message);
			if (message === 'server data purged') void sendToParent({ purged: (fields as { guildId: string }).guildId });
		},
		warn: (fields, message) => real.log.warn(fields, message),
	},
};
const runner = createPeriodicRunner(leftServerJob(deps), clock);

await runUntilStopped(
	parent,
	runner,
	async () => services.close(),
	() => ({ lines }),
);
