// One bot process of test/webhooks/delivery-across-processes.test.ts: it opens the bot's services on the shared store
// the parent names (WEBHOOK_ALLOW_HOSTS among the run's environment), waits for "go", then runs the real webhooks job
// on a clock that stands where the parent puts it, and tells the parent over IPC every attempt claim it tried and
// every webhook line it logged.
//
// Parent → child: { setup }, { go: startAt }, { now: epochMs }, { stop: true }.
// Child → parent: { ready: true }, { claim: { key, won } }, { line: msg } (as logged), { done: true }.
import { openBotServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config.js';
import { createPeriodicRunner, type Clock } from '../../src/core/periodic-runner.js';
import { createLogger } from '../../src/logger.js';
import { deliveryDeps, type WebhookContext } from '../../src/webhooks/webhook-context.js';
import { webhookJob } from '../../src/webhooks/webhook-job.js';

export interface DeliveryProcessSetup {
	/** The run's environment (STORE_URL, LINK_SECRET, WEBHOOK_ALLOW_HOSTS…): the parent's config. */
	env: Record<string, string>;
	namespacePrefix: string | undefined;
	/** Where the injected clock stands at first (epoch ms); it moves only when the parent says. */
	now: number;
	/** The retry schedule, injected as tests do through the context. */
	retryDelaysMs: number[];
}

type ParentMessage = { setup: DeliveryProcessSetup } | { go: number } | { now: number } | { stop: true };

const send = async (message: object) =>
	new Promise<void>((resolve, reject) =>
		process.send?.(message, (error: Error | null) => (error ? reject(error) : resolve())),
	);

let setupGiven = (_setup: DeliveryProcessSetup) => undefined as void;
let goGiven = (_startAt: number) => undefined as void;
let stopGiven = () => undefined as void;
const setupMessage = new Promise<DeliveryProcessSetup>((resolve) => (setupGiven = resolve));
const goMessage = new Promise<number>((resolve) => (goGiven = resolve));
const stopMessage = new Promise<void>((resolve) => (stopGiven = resolve));
let now = 0;
process.on('message', (message: ParentMessage) => {
	if ('setup' in message) setupGiven(message.setup);
	else if ('go' in message) goGiven(message.go);
	else if ('now' in message) now = message.now;
	else if ('stop' in message) stopGiven();
});

const setup = await setupMessage;
now = setup.now;

/** Stands where the parent put it; a wait on it takes at most 50 ms of real time before the runner looks again. */
const clock: Clock = {
	now: () => now,
	setTimer: (fn, ms) => {
		const timer = setTimeout(fn, Math.min(ms, 50));
		return () => clearTimeout(timer);
	},
};

const log = createLogger('debug', {
	write: (line: string) => {
		// Sent as it is logged: a process killed later has told its lines already.
		const msg = /"msg":"(webhook[^"]*)"/.exec(line)?.[1];
		if (msg) void send({ line: msg }).catch(() => undefined);
	},
});
const services = await openBotServices(loadConfig(setup.env, 'bot'), log, {
	namespacePrefix: setup.namespacePrefix,
	now: clock.now,
});
const ctx: WebhookContext = { ...services.ctx, webhookRetryDelaysMs: setup.retryDelaysMs };
const real = deliveryDeps(ctx, clock.now);
const runner = createPeriodicRunner(
	webhookJob({
		...real,
		claimOnce: async (key, ttlMs) => {
			const won = await real.claimOnce(key, ttlMs);
			await send({ claim: { key, won } });
			return won;
		},
	}),
	clock,
);

await send({ ready: true });
const startAt = await goMessage;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
runner.start();
await stopMessage;
await runner.stop();
await services.close();
await send({ done: true });
process.disconnect();
