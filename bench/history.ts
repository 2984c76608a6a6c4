// The history sampler's heap over a simulated day with 10,000 linked accounts, beside the same
// sampler with 100 accounts: a sampler that holds one link at a time stays flat.
import { measureSamplerMemory } from '../test/history/sampler-memory.js';
import type { BenchFigure } from './figures.js';

const ACCOUNTS = 10_000;
const FEW_ACCOUNTS = 100;
/** Heap growth over the day that still counts as flat. */
const FLAT_MIB = 2;

export async function runHistoryBench(): Promise<BenchFigure[]> {
	const few = await measureSamplerMemory(FEW_ACCOUNTS);
	const many = await measureSamplerMemory(ACCOUNTS);
	const growth = (heap: number[]) => Math.max(...heap) - heap[0]!;
	const manyGrowth = growth(many.heapMiB);
	return [
		{
			name: `sampler heap growth over a day, ${ACCOUNTS} linked accounts (${many.sampled} sampled)`,
			value: manyGrowth,
			unit: 'MiB',
			baseline: growth(few.heapMiB),
			goal: `flat: under ${FLAT_MIB} MiB of growth (baseline: ${FEW_ACCOUNTS} accounts)`,
			met: manyGrowth < FLAT_MIB,
		},
		{
			name: `sampler peak heap, ${ACCOUNTS} linked accounts`,
			value: Math.max(...many.heapMiB),
			unit: 'MiB',
			baseline: Math.max(...few.heapMiB),
			goal: `within ${FLAT_MIB} MiB of ${FEW_ACCOUNTS} accounts`,
			met: Math.max(...many.heapMiB) - Math.max(...few.heapMiB) < FLAT_MIB,
		},
	];
}
