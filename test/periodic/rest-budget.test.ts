import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Routes } from 'discord.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import { createBotRest } from '../../src/discord/bot-rest.js';
import { createRestBudget, openRestBudget, RestBudgetBusyError } from '../../src/discord/rest-budget.js';
import { withoutBudgetWait } from '../../src/rest-job.js';
import { openBudgetCounter } from '../../src/store/rest-budget-counter.js';
import { postgresBackend, POSTGRES_URL, redisBackend, REDIS_URL } from '../links/backends.js';

const prefix = () => `rbu${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

/** Grants per wall-clock second of the grant times. */
function perSecond(times: number[]): Map<number, number> {
	const counts = new Map<number, number>();
	for (const at of times) counts.set(Math.floor(at / 1000), (counts.get(Math.floor(at / 1000)) ?? 0) + 1);
	return counts;
}

const targets = [
	{ backend: await redisBackend(), url: REDIS_URL },
	{ backend: await postgresBackend(), url: POSTGRES_URL },
];

for (const { backend, url } of targets) {
	describe(`the REST budget on ${backend.name}`, () => {
		if (backend.unavailable) {
			if (process.env.CI === 'true') test('reachable in CI', () => assert.fail(backend.unavailable ?? ''));
			else test('skipped', (t) => t.skip(backend.unavailable ?? ''));
			return;
		}

		test('two limiters on one store never grant more than the budget in any wall-clock second', async () => {
			const namespacePrefix = prefix();
			const budgets = await Promise.all(
				[0, 1].map(async () => openRestBudget(url, { perSecond: 10, processes: 2, namespacePrefix })),
			);
			try {
				const granted: number[] = [];
				const started = Date.now();
				await Promise.all(
					budgets.flatMap((budget) =>
						Array.from({ length: 25 }, async () => {
							await budget.acquire('statchannels');
							granted.push(Date.now());
						}),
					),
				);
				for (const [second, count] of perSecond(granted)) assert.ok(count <= 10, `${count} grants in second ${second}`);
				// 50 calls at 10 a second: at least four seconds boundaries were crossed, so nothing was let through early.
				assert.ok(Date.now() - started >= 3000, `50 calls took only ${Date.now() - started} ms`);
			} finally {
				await Promise.all(budgets.map(async (budget) => budget.close()));
			}
		});

		test("a global 429's hold seen by one process holds the other's callers until it passes", async () => {
			const namespacePrefix = prefix();
			const counterA = await openBudgetCounter(url, { namespacePrefix });
			const b = await openRestBudget(url, { perSecond: 40, namespacePrefix });
			try {
				const a = createRestBudget({ perSecond: 40, counter: counterA });
				const until = Date.now() + 2000;
				a.holdUntil(until);
				// The hold reaches the store in one write; a loaded machine may take a few hundred ms for it.
				await new Promise((resolve) => setTimeout(resolve, 500));
				await b.acquire();
				assert.ok(Date.now() >= until, `granted ${until - Date.now()} ms before the hold ended`);
			} finally {
				await counterA?.close();
				await b.close();
			}
		});

		test('a shorter hold written after a longer one leaves the longer in place', async () => {
			const counter = await openBudgetCounter(url, { namespacePrefix: prefix() });
			try {
				const longer = Date.now() + 5000;
				await counter!.hold(longer);
				await counter!.hold(Date.now() + 1000);
				assert.equal((await counter!.take(Math.floor(Date.now() / 1000))).holdUntil, longer);
			} finally {
				await counter?.close();
			}
		});
	});
}

test('without the store answering, a call waits a bounded time and the process spends its own share', async () => {
	let now = 5_000_000;
	const budget = createRestBudget({
		perSecond: 40,
		processes: 4,
		counter: {
			take: async () => new Promise(() => undefined),
			hold: async () => undefined,
			close: async () => undefined,
		},
		storeWaitMs: 50,
		now: () => now,
		sleep: async (ms) => {
			now += ms;
		},
	});
	const started = Date.now();
	const granted: number[] = [];
	for (let i = 0; i < 25; i += 1) {
		await budget.acquire();
		granted.push(now);
	}
	assert.ok(Date.now() - started < 2000, 'the frozen store cost more than its bounded wait');
	for (const [, count] of perSecond(granted)) assert.ok(count <= 10, `${count} in one second on a 10-a-second share`);
});

test("in a second's quiet end a call is granted at once while the second is at most 3/4 spent, counted in the next second too", async () => {
	const second = 1_800_000_000;
	let now = second * 1000 + 800;
	const budget = createRestBudget({
		perSecond: 10,
		counter: null,
		now: () => now,
		sleep: async (ms) => {
			now += ms;
		},
	});
	const granted: number[] = [];
	for (let i = 0; i < 12; i += 1) {
		await budget.acquire();
		granted.push(now);
	}
	// Seven late grants at once (3/4 of 10, rounded down), each taking a slot of the next second too; the eighth
	// waits for it.
	assert.deepEqual(
		granted.slice(0, 7),
		Array.from({ length: 7 }, () => second * 1000 + 800),
	);
	const counts = perSecond(granted);
	assert.equal(counts.get(second), 7);
	assert.equal(counts.get(second + 1), 3, 'the next second keeps its budget minus the slots the late calls took');
	assert.equal(counts.get(second + 2), 2);
	// The late calls count in the next second too: its grants and theirs stay within its budget.
	assert.ok(counts.get(second)! + counts.get(second + 1)! <= 10);
});

test('a global 429 at the stand-in holds the caller for its retry_after and the call is made then', async () => {
	const sandbox = await startDiscordSandbox({ globalRequestsPerSecond: 5, validateSchema: false });
	try {
		// The budget allows more than the stand-in's limit: the 429s come, and every call still succeeds.
		let takes = 0;
		const counts = new Map<number, number>();
		const counter = {
			take: async (second: number) => {
				takes += 1;
				counts.set(second, (counts.get(second) ?? 0) + 1);
				return { count: counts.get(second)!, holdUntil: 0 };
			},
			hold: async () => undefined,
			close: async () => undefined,
		};
		const budget = createRestBudget({ perSecond: 40, counter });
		const rest = createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }, budget);
		const results = await Promise.all(
			Array.from({ length: 15 }, async () =>
				rest.get(Routes.user('@me')).then(
					() => 'ok',
					(error: Error) => error.name,
				),
			),
		);
		assert.deepEqual(new Set(results), new Set(['ok']));
		assert.ok(sandbox.globalLimit.refused > 0, 'the stand-in refused some');
		// Every request that reached the stand-in took a slot, the retries @discordjs/rest made after a 429 included.
		// A slot may be taken and left unused (a 429's hold began while the store answered, or a late timer pushed
		// the grant past the second's quiet end): the budget then errs on the safe side, so more slots than requests
		// is right, fewer would mean a retry went out uncounted.
		await new Promise((resolve) => setTimeout(resolve, 100));
		const requests = [...sandbox.globalLimit.perSecond.values()].reduce((sum, count) => sum + count, 0);
		assert.ok(requests > 15, `${requests} requests: the refused calls were not made again`);
		assert.ok(takes >= requests, `${takes} slots taken for ${requests} requests`);
	} finally {
		await sandbox.close();
	}
});

test('interaction callbacks and webhook follow-ups never wait for the budget', async () => {
	const budget = createRestBudget({ perSecond: 1, counter: null });
	await budget.acquire();
	const { isInteractionRoute } = await import('../../src/discord/rest-budget.js');
	assert.equal(isInteractionRoute(Routes.interactionCallback('1', 'tok')), true);
	assert.equal(isInteractionRoute(Routes.webhook('1', 'tok')), true);
	assert.equal(isInteractionRoute(Routes.channel('1')), false);
});

test("an autocomplete's calls take a slot only when one is free at once, and never queue behind the budget", async () => {
	const budget = createRestBudget({ perSecond: 2, counter: null });
	await withoutBudgetWait(async () => budget.acquire());
	await budget.acquire();
	// The second's two slots are spent: a queued call waits for the next second; a call that must not wait is refused.
	const queued = budget.acquire().then(() => Date.now());
	const started = Date.now();
	await assert.rejects(
		withoutBudgetWait(async () => budget.acquire()),
		RestBudgetBusyError,
	);
	assert.ok(Date.now() - started < 700, `refused after ${Date.now() - started} ms`);
	assert.ok((await queued) >= started, 'the queued call is still granted');
});
