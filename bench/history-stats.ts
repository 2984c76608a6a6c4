// `/stats days:365` drawn from the bot's history beside `days:30` in the same run, through the real bot
// and the Discord stand-in: a year of history must not make the answer noticeably slower.
import { generateDemoEvents, seedDemoAccount } from '../src/service/index.js';
import { seedDemoHistory } from '../scripts/demo/seed-history.js';
import { linkViaModal, startHarness } from '../test/app/harness.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const ROUNDS = 60;
const DAYS_OF_HISTORY = 400;
const SEED = 5;

export async function runHistoryStatsBench(): Promise<BenchFigure[]> {
	const harness = await startHarness({ env: { LOG_LEVEL: 'warn', STATS_CACHE_TTL_SECONDS: '60' } });
	try {
		const now = new Date();
		const account = seedDemoAccount(harness.service!.store, {
			name: 'Year Ads',
			days: DAYS_OF_HISTORY,
			seed: SEED,
			now,
		});
		await seedDemoHistory(harness.bot.ctx.stores.history, {
			user: 'Year Ads',
			events: generateDemoEvents({ days: DAYS_OF_HISTORY, seed: SEED, now }),
			now,
			days: DAYS_OF_HISTORY - 1,
			historyDays: harness.bot.ctx.config.historyDays,
		});
		const userId = '420000000000000001';
		await linkViaModal(harness, account.apiKey, { userId });
		const timeStats = async (days: number): Promise<number> => {
			const started = performance.now();
			await harness.sandbox
				.dispatchCommand({ name: 'stats', userId, options: [{ name: 'days', type: 4, value: days }] })
				.finalMessage(20_000);
			return performance.now() - started;
		};
		// The first of each draws its chart; the rounds measure what members meet once charts are memoised.
		await timeStats(30);
		await timeStats(365);
		const month: number[] = [];
		const year: number[] = [];
		for (let round = 0; round < ROUNDS; round += 1) {
			month.push(await timeStats(30));
			year.push(await timeStats(365));
		}
		const p99Year = percentile(year, 99);
		const p99Month = percentile(month, 99);
		return [
			{
				name: '/stats days:365 from history, p50',
				value: percentile(year, 50),
				unit: 'ms',
				baseline: percentile(month, 50),
				goal: 'baseline: days:30 in the same run',
				met: null,
			},
			{
				name: '/stats days:365 from history, p99',
				value: p99Year,
				unit: 'ms',
				baseline: p99Month,
				goal: 'within 1.5x of days:30',
				met: p99Year <= 1.5 * p99Month,
			},
		];
	} finally {
		await harness.close();
	}
}
