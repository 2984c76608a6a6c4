import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { createHash } from 'node:crypto';
import { createPeriodicRunner, type PeriodicRunner } from '../../src/core/periodic-runner.js';
import { samplerJob, PASS_LEASE_MS, SAMPLE_LEASE_MS, sampleHourOf } from '../../src/history/sampler.js';
import type { HistorySamplerOptions, SamplerAccount } from '../../src/history/sampler.js';
import { KeyRejectedError, RateLimitedError } from '../../src/errors.js';
import { FakeClock, memoryClaims, loneProcessClaims } from './fake-clock.js';
import { makeSnapshot } from './snapshots.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-23T00:00:00Z');
const SECRET = Buffer.alloc(32, 0x5a);

const keyOf = (index: number) => `sk_test_${String(index).padStart(6, '0')}_${'x'.repeat(12)}`;
const accounts = (count: number): SamplerAccount[] =>
	Array.from({ length: count }, (_, index) => ({ linkKey: `user:${1000 + index}`, apiKey: keyOf(index) }));

interface Call {
	apiKey: string;
	at: number;
}

function harness(clock: FakeClock, list: SamplerAccount[], overrides: Partial<HistorySamplerOptions> = {}) {
	const calls: Call[] = [];
	const recorded: string[] = [];
	const lines: string[] = [];
	const options: HistorySamplerOptions = {
		listAccounts: async function* () {
			yield* list;
		},
		fetchSnapshot: async (apiKey) => {
			calls.push({ apiKey, at: clock.now() });
			return {
				snapshot: makeSnapshot({ generatedAt: new Date(clock.now()).toISOString(), user: `account-${apiKey}` }),
				fetchedAt: clock.now(),
			};
		},
		record: async (snapshot) => {
			recorded.push(snapshot.meta.user ?? '');
		},
		claim: memoryClaims(clock.now).claim,
		secret: SECRET,
		perMinute: 30,
		now: clock.now,
		log: {
			info: (fields, message) => lines.push(JSON.stringify({ ...fields, message })),
			warn: (fields, message) => lines.push(JSON.stringify({ ...fields, message })),
		},
		...overrides,
	};
	return { options, calls, recorded, lines };
}

const running: PeriodicRunner[] = [];
const started = (options: HistorySamplerOptions, clock: FakeClock) => {
	const sampler = createPeriodicRunner(samplerJob(options), clock);
	sampler.start();
	running.push(sampler);
	return sampler;
};
afterEach(async () => {
	for (const sampler of running.splice(0)) await sampler.stop();
});

const perDay = (calls: Call[]) => {
	const counts = new Map<string, number>();
	for (const call of calls) {
		const key = `${new Date(call.at).toISOString().slice(0, 10)} ${call.apiKey}`;
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
};

test('two processes sharing the claims sample every account once a day in total, about 24 h apart', async () => {
	const clock = new FakeClock(START);
	const list = accounts(60);
	const { claim, claims } = memoryClaims(clock.now);
	const first = harness(clock, list, { claim });
	const second = harness(clock, list, { claim });
	started(first.options, clock);
	started(second.options, clock);
	await clock.advanceTo(START + 2 * DAY - 1);
	const calls = [...first.calls, ...second.calls];
	const counts = perDay(calls);
	assert.equal(counts.size, 120, 'each of 60 accounts on each of 2 days');
	assert.ok([...counts.values()].every((count) => count === 1));
	assert.ok(first.calls.length > 0 && second.calls.length > 0, 'both processes took part');
	for (const { apiKey } of list) {
		const times = calls.filter((call) => call.apiKey === apiKey).map((call) => call.at);
		assert.equal(times.length, 2);
		assert.ok(Math.abs((times[1] ?? 0) - (times[0] ?? 0) - DAY) <= HOUR, 'samples about a day apart');
	}
	for (const key of claims.keys()) {
		assert.match(key, /^history-(sample(-lease)?:2026-11-2[34]:[0-9a-f]{32}|pass(-lease)?:2026-11-2[34]:\d{1,2})$/);
		assert.ok(!list.some(({ apiKey }) => key.includes(apiKey)));
	}
	const hours = new Set(calls.map((call) => new Date(call.at).getUTCHours()));
	assert.ok(hours.size >= 12, `spread over the day (${hours.size} hours)`);
});

test('links sharing a key are one account: one call a day', async () => {
	const clock = new FakeClock(START);
	const shared = { linkKey: 'guild:9', apiKey: keyOf(1) };
	const { options, calls } = harness(clock, [...accounts(3), shared]);
	started(options, clock);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(calls.filter((call) => call.apiKey === keyOf(1)).length, 1);
	assert.equal(calls.length, 3);
});

test('upstream calls stay within the per-minute bound', async () => {
	const clock = new FakeClock(START + 23 * HOUR);
	const { options, calls } = harness(clock, accounts(40), { perMinute: 4 });
	started(options, clock);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(calls.length, 40, 'a start late in the day catches up every account');
	for (const [index, call] of calls.entries()) {
		const inWindow = calls.slice(index).filter((other) => other.at < call.at + 60_000);
		assert.ok(inWindow.length <= 4, `${inWindow.length} calls within a minute`);
	}
});

test('a 429 waits its Retry-After and then samples the account', async () => {
	const clock = new FakeClock(START + 23 * HOUR);
	let refused = false;
	const { options, calls, recorded } = harness(clock, accounts(2));
	const fetchSnapshot = options.fetchSnapshot;
	options.fetchSnapshot = async (apiKey) => {
		if (!refused) {
			refused = true;
			calls.push({ apiKey, at: clock.now() });
			throw new RateLimitedError(120);
		}
		return fetchSnapshot(apiKey);
	};
	started(options, clock);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(calls.length, 3);
	assert.equal(calls[1]?.apiKey, calls[0]?.apiKey, 'the same account is retried');
	assert.ok((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0) >= 120_000);
	assert.equal(recorded.length, 2);
});

test('an account whose key is rejected is skipped for the day, and its key is never logged', async () => {
	const clock = new FakeClock(START);
	const list = accounts(3);
	const { options, calls, recorded, lines } = harness(clock, list);
	const fetchSnapshot = options.fetchSnapshot;
	options.fetchSnapshot = async (apiKey) => {
		if (apiKey === keyOf(0)) {
			calls.push({ apiKey, at: clock.now() });
			throw new KeyRejectedError(401);
		}
		return fetchSnapshot(apiKey);
	};
	started(options, clock);
	await clock.advanceTo(START + 2 * DAY - 1);
	assert.equal(calls.filter((call) => call.apiKey === keyOf(0)).length, 2, 'once a day, no retry loop');
	assert.equal(recorded.length, 4);
	const log = lines.join('\n');
	assert.match(log, /"linkKey":"user:1000".*key is rejected/);
	for (const { apiKey } of list) assert.ok(!log.includes(apiKey));
});

test('a process started mid-day catches up the hours already past, and the rest come at their hour', async () => {
	const clock = new FakeClock(START + 15.5 * HOUR);
	const { options, calls } = harness(clock, accounts(48));
	started(options, clock);
	await clock.advanceTo(START + 15.5 * HOUR + 30 * 60_000);
	const caughtUp = calls.length;
	assert.ok(caughtUp > 0 && caughtUp < 48, `${caughtUp} caught up`);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(calls.length, 48);
	for (const call of calls.slice(caughtUp)) assert.ok(call.at >= START + 16 * HOUR);
});

test('a process that dies before its call costs no account a day: another samples it once the claims expire', async () => {
	const clock = new FakeClock(START + 5 * HOUR);
	const list = accounts(40);
	const { claim } = memoryClaims(clock.now);
	// The first process catches up hours 0 to 5, claims an account and dies before its call ends (its
	// fetch never settles, so it never marks the sample done nor releases anything).
	const dying = harness(clock, list, { claim });
	dying.options.fetchSnapshot = async (apiKey) => {
		dying.calls.push({ apiKey, at: clock.now() });
		return new Promise(() => undefined);
	};
	createPeriodicRunner(samplerJob(dying.options), clock).start();
	await clock.advanceTo(START + 5 * HOUR + 1000);
	const [lost] = dying.calls;
	assert.ok(lost, 'the dying process claimed an account');
	assert.equal(dying.calls.length, 1);

	const survivor = harness(clock, list, { claim });
	started(survivor.options, clock);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(dying.calls.length, 1, 'the dead process made no further call');
	const rescued = survivor.calls.filter((call) => call.apiKey === lost.apiKey);
	assert.equal(rescued.length, 1, "the dead process's account is sampled that day, once");
	assert.ok(rescued[0]!.at >= lost.at + SAMPLE_LEASE_MS, 'only after the dead claim expired');
	assert.ok(rescued[0]!.at <= lost.at + PASS_LEASE_MS + HOUR, 'at the first round after the pass lease expired');
	const counts = perDay(survivor.calls);
	assert.equal(counts.size, list.length, 'every account sampled that day');
	assert.ok(
		[...counts.values()].every((count) => count === 1),
		'none twice',
	);
	assert.equal(survivor.recorded.length, list.length);
});

test('a process stopped mid-pass releases what it holds: another takes the rest at its next round', async () => {
	const clock = new FakeClock(START + 5 * HOUR);
	const list = accounts(40);
	const { claim } = memoryClaims(clock.now);
	const stopping = harness(clock, list, { claim });
	const sampler = createPeriodicRunner(samplerJob(stopping.options), clock);
	sampler.start();
	await clock.advanceTo(START + 5 * HOUR + 3000);
	assert.ok(stopping.calls.length > 0 && stopping.calls.length < 10, `${stopping.calls.length} sampled before stop`);
	await sampler.stop();
	const other = harness(clock, list, { claim });
	started(other.options, clock);
	await clock.advanceTo(START + 6 * HOUR - 1);
	const counts = perDay([...stopping.calls, ...other.calls]);
	const sampledBeforeSix = other.calls.length + stopping.calls.length;
	assert.ok(
		[...counts.values()].every((count) => count === 1),
		'none twice',
	);
	assert.ok(
		other.calls.every((call) => call.at < START + 5 * HOUR + PASS_LEASE_MS),
		'without waiting for the leases to expire',
	);
	assert.ok(sampledBeforeSix > stopping.calls.length, 'the rest of the stopped pass was taken up before 06:00');
	await clock.advanceTo(START + DAY - 1);
	assert.equal(perDay([...stopping.calls, ...other.calls]).size, list.length);
});

test('stop ends sampling: no call after it', async () => {
	const clock = new FakeClock(START);
	const { options, calls } = harness(clock, accounts(30));
	const sampler = started(options, clock);
	await clock.advanceTo(START + 6 * HOUR);
	const before = calls.length;
	await sampler.stop();
	await clock.advanceTo(START + DAY);
	assert.equal(calls.length, before);
	assert.equal(clock.pendingTimers, 0);
});

test('a store failure ends one pass only', async () => {
	const clock = new FakeClock(START);
	const { options, calls, lines } = harness(clock, accounts(30));
	const claim = options.claim;
	let failing = true;
	options.claim = async (key, ttl) => {
		if (failing) throw new Error('store down');
		return claim(key, ttl);
	};
	started(options, clock);
	await clock.advanceTo(START + 2 * HOUR);
	assert.equal(calls.length, 0);
	assert.match(lines.join('\n'), /pass failed/);
	failing = false;
	await clock.advanceTo(START + DAY - 1);
	assert.ok(calls.length > 0);
});

test('the sampler reads one link at a time, never ahead', async () => {
	const clock = new FakeClock(START);
	const count = 10_000;
	let yielded = 0;
	let lastYielded = '';
	let readAhead = 0;
	const { options } = harness(clock, []);
	options.perMinute = 60;
	options.claim = loneProcessClaims(clock.now);
	options.listAccounts = async function* () {
		for (let index = 0; index < count; index += 1) {
			lastYielded = keyOf(index);
			yielded += 1;
			yield { linkKey: `user:${index}`, apiKey: lastYielded };
		}
	};
	let calls = 0;
	options.fetchSnapshot = async (apiKey) => {
		calls += 1;
		if (apiKey !== lastYielded) readAhead += 1;
		return { snapshot: makeSnapshot({ generatedAt: new Date(clock.now()).toISOString() }), fetchedAt: clock.now() };
	};
	started(options, clock);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(calls, count);
	assert.equal(readAhead, 0);
	assert.ok(yielded >= count);
});

test("a stale snapshot (the endpoint unreachable) is not recorded as the day's sample", async () => {
	const clock = new FakeClock(START + 23 * HOUR);
	const { options, recorded, lines } = harness(clock, accounts(1));
	const fetchSnapshot = options.fetchSnapshot;
	options.fetchSnapshot = async (apiKey) => ({ ...(await fetchSnapshot(apiKey)), isStale: true });
	started(options, clock);
	await clock.advanceTo(START + DAY - 1);
	assert.equal(recorded.length, 0);
	assert.match(lines.join('\n'), /unreachable/);
});

test("accounts spread over the day's 24 hours by their key's hash, the busiest hour under twice the mean", () => {
	const perHour = new Array<number>(24).fill(0);
	const accounts = 4800;
	for (let i = 0; i < accounts; i += 1) {
		// Account keys are hex HMACs; any well-mixed hex stands in for them here.
		const accountKey = createHash('sha256').update(`account ${i}`).digest('hex').slice(0, 32);
		const hour = sampleHourOf(accountKey);
		assert.equal(sampleHourOf(accountKey), hour);
		perHour[hour] = (perHour[hour] ?? 0) + 1;
	}
	const mean = accounts / 24;
	assert.ok(Math.max(...perHour) <= 2 * mean, `busiest hour ${Math.max(...perHour)} of mean ${mean}`);
	assert.ok(Math.min(...perHour) > 0, 'every hour has accounts');
});
