// The sampler's heap over one simulated day with many linked accounts, read with
// `node --import tsx test/history/sampler-memory.ts [accounts]`; sampler-memory.test.ts holds it to a bound.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createPeriodicRunner } from '../../src/core/periodic-runner.js';
import { samplerJob } from '../../src/history/sampler.js';
import { FakeClock, loneProcessClaims } from './fake-clock.js';
import { makeSnapshot } from './snapshots.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-23T00:00:00Z');

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapMiB(): number {
	collect();
	collect();
	return process.memoryUsage().heapUsed / 2 ** 20;
}

export interface MemoryFigures {
	accounts: number;
	sampled: number;
	/** Heap after a full collection, MiB, at the start and 5 minutes into the passes of 04:00, 08:00 … 20:00. */
	heapMiB: number[];
}

/** Runs a sampler over `count` accounts with keys of the longest allowed length for one simulated day. */
export async function measureSamplerMemory(count: number): Promise<MemoryFigures> {
	const clock = new FakeClock(START);
	let sampled = 0;
	const sampler = createPeriodicRunner(
		samplerJob({
			listAccounts: async function* () {
				for (let index = 0; index < count; index += 1) {
					yield { linkKey: `user:${100_000 + index}`, apiKey: `${index}:`.padEnd(256, 'k') };
				}
			},
			fetchSnapshot: async () => ({
				snapshot: makeSnapshot({ generatedAt: new Date(clock.now()).toISOString() }),
				fetchedAt: clock.now(),
			}),
			record: async () => {
				sampled += 1;
			},
			// Claims live in the shared store, not in the sampler's heap.
			claim: loneProcessClaims(clock.now),
			secret: Buffer.alloc(32, 1),
			perMinute: 30,
			now: clock.now,
			log: { info: () => undefined, warn: () => undefined },
		}),
		clock,
	);
	const heap = [heapMiB()];
	sampler.start();
	// Mid-pass, when a sampler that read every link up front would still hold them all.
	for (let hour = 4; hour <= 20; hour += 4) {
		await clock.advanceTo(START + hour * HOUR + 5 * 60_000);
		heap.push(heapMiB());
	}
	await clock.advanceTo(START + 24 * HOUR - 1);
	await sampler.stop();
	return { accounts: count, sampled, heapMiB: heap };
}

if (process.argv[1]?.endsWith('sampler-memory.ts')) {
	const figures = await measureSamplerMemory(Number(process.argv[2] ?? 10_000));
	console.log(`accounts: ${figures.accounts}`);
	console.log(`sampled: ${figures.sampled}`);
	console.log(`heap MiB at start and mid-pass every 4 h: ${figures.heapMiB.map((mib) => mib.toFixed(1)).join(' ')}`);
}
