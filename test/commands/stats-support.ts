// Shared by the stats end-to-end tests: a QuickChart stand-in that keeps every chart config the bot sends
// (so a test reads labels, titles and data instead of pixels), and history seeded through the bot's own store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { createCanvas } from '@napi-rs/canvas';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import type { Harness } from '../app/harness.js';

export interface RecordedChart {
	data: { labels: string[]; datasets: { label: string; data: (number | null)[] }[] };
	options: {
		plugins: { title: { text: string }; subtitle: { text: string } };
		scales: { y: { title: { text: string } } };
	};
}

export interface FakeQuickChart {
	url: string;
	charts: RecordedChart[];
	close(): Promise<void>;
}

/** Answers every POST /chart with a small real PNG and records the Chart.js config it was sent. */
export async function startFakeQuickChart(): Promise<FakeQuickChart> {
	const png = await createCanvas(10, 10).encode('png');
	const charts: RecordedChart[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { chart: string };
			// quickchart-js writes the config as a JavaScript literal; read it as QuickChart does.
			charts.push(JSON.parse(JSON.stringify(runInNewContext(`(${body.chart})`))) as RecordedChart);
			res.writeHead(200, { 'content-type': 'image/png' }).end(png);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		charts,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Joins on the k-th day before today in seeded history: known, varied, never 0. */
export const seededJoins = (daysAgo: number): number => 5 + (daysAgo % 3);

/** Sends on a date in seeded history, where the live snapshot's breakdown does not cover it. */
export const seededSends = (date: string): number => 100 + Number(date.slice(8, 10));

/**
 * Folds one snapshot a day for `days` days before today into the account's history, as the sampler would have
 * taken them: each dated by its own `generated_at`, consistent with the live snapshot (joins and failed sends
 * before today add up to its totals), so joins per day come out as `seededJoins`.
 */
export async function seedHistory(h: Harness, apiKey: string, days: number, now = h.now()): Promise<StatsSnapshot> {
	const live = (await h.bot.ctx.stats.fetchSnapshot(apiKey)).snapshot;
	const today = utcDateOf(now);
	const joinsBeforeToday = (live.joins.allTime ?? 0) - (live.joins.today ?? 0);
	let joinsBefore = joinsBeforeToday;
	for (let daysAgo = 1; daysAgo <= days; daysAgo++) {
		joinsBefore -= seededJoins(daysAgo);
		await h.bot.ctx.history.record(pastSnapshot(live, addDays(today, -daysAgo), joinsBefore, daysAgo));
	}
	return live;
}

/** A snapshot as the endpoint would have answered at noon UTC on `date`. */
export function pastSnapshot(live: StatsSnapshot, date: string, joinsBefore: number, daysAgo: number): StatsSnapshot {
	const breakdown = Array.from({ length: 30 }, (_, index) => {
		const day = addDays(date, index - 29);
		return { date: day, sends: seededSends(day) };
	});
	return {
		sends: {
			...live.sends,
			failedAllTime: Math.max(0, (live.sends.failedAllTime ?? 0) - daysAgo),
			dailyBreakdown: breakdown,
		},
		joins: { ...live.joins, today: 2, allTime: joinsBefore + 2 },
		meta: { ...live.meta, generatedAt: `${date}T12:00:00.000Z` },
	};
}

/** The value of a dataset at a label index, whichever of the two bar datasets (complete days, today) holds it. */
export function barValue(chart: RecordedChart, index: number): number | null {
	const [complete, today] = chart.data.datasets;
	return complete?.data[index] ?? today?.data[index] ?? null;
}
