import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { openStatsStore, startStatsServer, type StatsStore } from '../src/service/index.js';
import type { BenchFigure } from './figures.js';

const DEFAULT_EVENTS = 10_000_000;
const ACCOUNT = 'bench';
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 400;
const CHUNK = 1_000_000;
const NOW = new Date();

function dbPathFor(events: number): string {
	const label = events === DEFAULT_EVENTS ? '10m' : String(events);
	return join('data', `bench-service-${label}.sqlite`);
}

/** The cached file is reused only when its totals and event ids say it holds exactly `events` events. */
function isBuilt(store: StatsStore, events: number): boolean {
	const row = store.db
		.prepare('SELECT sends_ok + sends_failed + joins AS total FROM accounts WHERE name = ?')
		.get(ACCOUNT) as { total: number } | undefined;
	const maxId = store.db.prepare('SELECT MAX(id) AS id FROM events').get() as { id: number | null };
	return row?.total === events && maxId.id === events;
}

// Events are generated inside SQLite (a recursive series) in big transactions: the 10M-row build
// stays in the minutes budget. Times grow with the id, so the index is appended to in order.
// better-sqlite3 binds JS numbers as REAL, hence the CAST: a REAL time would make REAL day numbers.
function buildBenchStore(path: string, events: number): StatsStore {
	for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
	const store = openStatsStore(path);
	store.db.pragma('synchronous = OFF');
	store.db.pragma('cache_size = -262144');
	store.createAccount(ACCOUNT);
	const accountId = (store.db.prepare('SELECT id FROM accounts WHERE name = ?').get(ACCOUNT) as { id: number }).id;
	const start = (Math.floor(NOW.getTime() / DAY_MS) - HISTORY_DAYS + 1) * DAY_MS;
	const spanMs = Math.min(HISTORY_DAYS * DAY_MS, NOW.getTime() - start);
	const insertChunk = store.db.prepare(`
		WITH RECURSIVE seq(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
		INSERT INTO events (account_id, kind, at)
		SELECT ?, CASE WHEN (i * 2654435761) % 100 < 5 THEN 1 WHEN (i * 2654435761) % 100 < 17 THEN 2 ELSE 0 END,
			CAST(? + i * ? / ? AS INTEGER)
		FROM seq`);
	for (let first = 0; first < events; first += CHUNK) {
		const last = Math.min(events, first + CHUNK) - 1;
		store.db.transaction(() => insertChunk.run(first, last, accountId, start, spanMs, events))();
	}
	store.db.transaction(() => {
		store.db
			.prepare(
				`INSERT INTO daily_rollups (account_id, day, sends_ok, sends_failed, joins)
				SELECT account_id, at / ${DAY_MS}, SUM(kind = 0), SUM(kind = 1), SUM(kind = 2)
				FROM events WHERE account_id = ? GROUP BY account_id, at / ${DAY_MS}`,
			)
			.run(accountId);
		store.db
			.prepare(
				`UPDATE accounts SET (sends_ok, sends_failed, joins) = (SELECT SUM(sends_ok), SUM(sends_failed), SUM(joins)
				FROM daily_rollups WHERE account_id = accounts.id) WHERE id = ?`,
			)
			.run(accountId);
	})();
	store.db.pragma('synchronous = NORMAL');
	store.db.pragma('wal_checkpoint(TRUNCATE)');
	return store;
}

function percentile(sortedMs: number[], p: number): number {
	return sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))] ?? NaN;
}

function timeMany(runs: number, work: () => void): number[] {
	const times: number[] = [];
	for (let i = 0; i < runs; i += 1) {
		const started = performance.now();
		work();
		times.push(performance.now() - started);
	}
	return times.sort((a, b) => a - b);
}

async function timeHttp(url: string, apiKey: string, requests: number, concurrency: number) {
	const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
	const headers = { authorization: `Bearer ${apiKey}` };
	const latencies: number[] = [];
	const once = async () => {
		const started = performance.now();
		const response = await pool.request({ path: '/api/v1/stats', method: 'GET', headers });
		await response.body.text();
		if (response.statusCode !== 200) throw new Error(`bench request got HTTP ${response.statusCode}`);
		latencies.push(performance.now() - started);
	};
	let left = requests;
	const worker = async () => {
		while (left > 0) {
			left -= 1;
			await once();
		}
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	await pool.close();
	return { sorted: latencies.sort((a, b) => a - b), perSecond: requests / seconds };
}

/** Builds (or reuses) an account with `events` events and measures the stats path over HTTP and in-process. */
export async function runServiceBench(options: { events?: number } = {}): Promise<BenchFigure[]> {
	const events = options.events ?? DEFAULT_EVENTS;
	const path = dbPathFor(events);
	let store = existsSync(path) ? openStatsStore(path) : null;
	let buildSeconds: number | null = null;
	if (!store || !isBuilt(store, events)) {
		store?.close();
		const started = performance.now();
		store = buildBenchStore(path, events);
		buildSeconds = (performance.now() - started) / 1000;
	}
	const apiKey = store.rotateKey(ACCOUNT);
	const account = store.authenticate(apiKey);
	if (!account) throw new Error('the bench account did not authenticate');
	const bench = store;

	const rawBody = bench.computeStatsFromRawEvents(ACCOUNT, NOW);
	const rollupBody = bench.computeStatsFor(account, NOW);
	if (JSON.stringify(rawBody.data.sends) !== JSON.stringify(rollupBody.data.sends)) {
		throw new Error('roll-ups and raw events disagree');
	}
	const raw = timeMany(3, () => bench.computeStatsFromRawEvents(ACCOUNT, NOW));
	timeMany(500, () => bench.computeStatsFor(bench.authenticate(apiKey) ?? account, NOW));
	const rollup = timeMany(5000, () => bench.computeStatsFor(bench.authenticate(apiKey) ?? account, NOW));

	const server = await startStatsServer({ store: bench, rateLimitPerMinute: 0 });
	let sequential;
	let parallel;
	try {
		await timeHttp(server.url, apiKey, 1000, 1);
		(globalThis as { gc?: () => void }).gc?.();
		sequential = await timeHttp(server.url, apiKey, 5000, 1);
		parallel = await timeHttp(server.url, apiKey, 8000, 8);
	} finally {
		await server.close();
		bench.close();
	}

	const rawMs = percentile(raw, 50);
	const rollupMs = percentile(rollup, 50);
	const httpP99 = percentile(sequential.sorted, 99);
	const speedup = rawMs / rollupMs;
	const scale = `${events.toLocaleString('en-US')} events`;
	return [
		...(buildSeconds === null
			? []
			: [
					{
						name: 'service.build_seconds',
						value: buildSeconds,
						unit: 's',
						baseline: null,
						goal: `build ${scale} in a few minutes`,
						met: buildSeconds < 300,
					},
				]),
		{
			name: 'service.http_p50_ms',
			value: percentile(sequential.sorted, 50),
			unit: 'ms',
			baseline: null,
			goal: `sequential keep-alive GET at ${scale}`,
			met: null,
		},
		{
			name: 'service.http_p99_ms',
			value: httpP99,
			unit: 'ms',
			baseline: null,
			goal: `p99 < 3 ms at ${scale}`,
			met: httpP99 < 3,
		},
		{
			name: 'service.http_rps_sequential',
			value: sequential.perSecond,
			unit: 'req/s',
			baseline: null,
			goal: 'one keep-alive connection',
			met: null,
		},
		{
			name: 'service.http_rps_concurrency8',
			value: parallel.perSecond,
			unit: 'req/s',
			baseline: sequential.perSecond,
			goal: '8 keep-alive connections',
			met: null,
		},
		{
			name: 'service.rollup_query_p50_ms',
			value: rollupMs,
			unit: 'ms',
			baseline: rawMs,
			goal: 'in-process key lookup + roll-ups; baseline = raw-event aggregation',
			met: null,
		},
		{
			name: 'service.rollup_query_p99_ms',
			value: percentile(rollup, 99),
			unit: 'ms',
			baseline: null,
			goal: 'in-process',
			met: null,
		},
		{
			name: 'service.raw_aggregation_ms',
			value: rawMs,
			unit: 'ms',
			baseline: null,
			goal: 'same answer from the raw events table (index-only scan)',
			met: null,
		},
		{
			name: 'service.rollup_speedup',
			value: speedup,
			unit: 'x',
			baseline: null,
			goal: `>= 100x faster than raw aggregation at ${scale}`,
			met: speedup >= 100,
		},
	];
}

function printTable(figures: BenchFigure[]): void {
	const rows = figures.map((f) => [
		f.name,
		`${f.value.toFixed(f.value < 10 ? 3 : 1)} ${f.unit}`,
		f.baseline === null ? '' : f.baseline.toFixed(f.baseline < 10 ? 3 : 1),
		f.met === null ? '' : f.met ? 'met' : 'MISSED',
		f.goal,
	]);
	const header = ['figure', 'value', 'baseline', 'met', 'goal'];
	const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
	for (const row of [header, ...rows])
		console.log(row.map((cell, i) => (cell ?? '').padEnd(widths[i] ?? 0)).join('  '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const events = process.env.BENCH_EVENTS ? Number(process.env.BENCH_EVENTS) : undefined;
	printTable(await runServiceBench({ events }));
}
