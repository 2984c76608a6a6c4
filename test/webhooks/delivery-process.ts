// One bot process of test/webhooks/delivery-across-processes.test.ts: it opens the bot's services on the shared store
// the parent names (WEBHOOK_ALLOW_HOSTS among the run's environment), waits for "go", then runs the real webhooks job
// on a clock that stands where the parent puts it, and tells the parent over IPC every attempt claim it tried and
// every webhook line it logged.
//
// Parent → child: { setup }, { go: startAt }, { now: epochMs }, { stop: true }.
// Child → parent: { ready: true }, { claim: { key, won } }, { line: msg } (as logged), { done: true }.
import { openBotServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config.js';
import { createPeriodicRunner } from '../../src/core/periodic-runner.js';
import { createLogger } from '../../src/logger.js';
import { deliveryDeps, type WebhookContext } from '../../src/webhooks/webhook-context.js';
import { webhookJob } from '../../src/webhooks/webhook-job.js';
import { listenToParent, parentClock, runUntilStopped, sendToParent } from '../core/job-child.js';

export interface DeliveryProcessSetup {
	/** The run's environment (STORE_URL, LINK_SECRET, WEBHOOK_ALLOW_HOSTS…): the parent's config. */
	env: Record<string, string>;
	namespacePrefix: string | undefined;
	/** Where the injected clock stands at first (epoch ms); it moves only when the parent says. */
	now: number;
	/** The retry schedule, injected as tests do through the context. */
	retryDelaysMs: number[];
}

let now = 0;
const parent = listenToParent<DeliveryProcessSetup, { now: number }>((message) => (now = message.now));
const setup = await parent.setup;
now = setup.now;
/** Stands where the parent put it. */
const clock = parentClock(() => now);

const log = createLogger('debug', {
	write: (line: string) => {
		// Sent as it is logged: a process killed later has told its lines already.
		const msg = /"msg":"(webhook[^"]*)"/.exec(line)?.[1];
		if (msg) void sendToParent({ line: msg }).catch(() => undefined);
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
			await sendToParent({ claim: { key, won } });
			return won;
		},
	}),
	clock,
);

await runUntilStopped(parent, runner, async () => services.close());
