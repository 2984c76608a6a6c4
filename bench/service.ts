import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { openStatsStore, startStatsServer, STATS_PATH, type StatsBody, type StatsStore } from '../src/service/index.js';
import type { BenchFigure } from './figures.js';
import { startRawStatsServer } from './raw-stats-server.js';

const DEFAULT_EVENTS = 10_000_000;
const ACCOUNT = 'bench';
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 400;
const CHUNK = 1_000_000;
const RAW_HTTP_REQUESTS = 5;
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
		const response = await pool.request({ path: STATS_PATH, method: 'GET', headers });
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

/** Reads one stats body over HTTP, for checking that both servers answer the same thing. */
async function fetchStats(url: string, apiKey: string): Promise<StatsBody> {
	const pool = new Pool(url, { connections: 1 });
	try {
		const headers = { authorization: `Bearer ${apiKey}` };
		const response = await pool.request({ path: STATS_PATH, method: 'GET', headers });
		const body = (await response.body.json()) as StatsBody;
		if (response.statusCode !== 200) throw new Error(`bench request got HTTP ${response.statusCode}`);
		return body;
	} finally {
		await pool.close();
	}
}

const withoutClock = (body: StatsBody) => JSON.stringify({ ...body.data, meta: { user: body.data.meta.user } });

function scaleLabel(events: number): string {
	return events % 1_000_000 === 0 ? `${events / 1_000_000}M events` : `${events.toLocaleString('en-US')} events`;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Builds (or reuses) an account with `events` events and measures GET /api/v1/stats over HTTP beside a
 * server answering the same request from the raw events table, plus both queries in-process.
 */
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
	if (withoutClock(rawBody) !== withoutClock(rollupBody)) throw new Error('roll-ups and raw events disagree');
	const raw = timeMany(3, () => bench.computeStatsFromRawEvents(ACCOUNT, NOW));
	timeMany(500, () => bench.computeStatsFor(bench.authenticate(apiKey) ?? account, NOW));
	const rollup = timeMany(5000, () => bench.computeStatsFor(bench.authenticate(apiKey) ?? account, NOW));

	const server = await startStatsServer({ store: bench, rateLimitPerMinute: 0 });
	const rawServer = await startRawStatsServer(bench);
	let sequential;
	let parallel;
	let rawHttp;
	try {
		// The day may turn between the two calls; a mismatch that late would only cost a rerun.
		if (withoutClock(await fetchStats(server.url, apiKey)) !== withoutClock(await fetchStats(rawServer.url, apiKey))) {
			throw new Error('the roll-up server and the raw-aggregation server answer differently');
		}
		await timeHttp(server.url, apiKey, 1000, 1);
		(globalThis as { gc?: () => void }).gc?.();
		sequential = await timeHttp(server.url, apiKey, 5000, 1);
		parallel = await timeHttp(server.url, apiKey, 8000, 8);
		// Each raw answer scans the whole account (about a second at 10M), hence so few requests.
		await timeHttp(rawServer.url, apiKey, 1, 1);
		rawHttp = await timeHttp(rawServer.url, apiKey, RAW_HTTP_REQUESTS, 1);
	} finally {
		await Promise.all([server.close(), rawServer.close()]);
		bench.close();
	}

	const rawMs = percentile(raw, 50);
	const rollupMs = percentile(rollup, 50);
	const httpP50 = percentile(sequential.sorted, 50);
	const httpP99 = percentile(sequential.sorted, 99);
	const rawHttpP50 = percentile(rawHttp.sorted, 50);
	const rawHttpMax = percentile(rawHttp.sorted, 100);
	const httpSpeedup = rawHttpP50 / httpP50;
	const scale = scaleLabel(events);
	const rawNote = `baseline = the same request answered by aggregating the raw events table (${RAW_HTTP_REQUESTS} requests)`;
	const figures: BenchFigure[] = [
		...(buildSeconds === null
			? []
			: [
					{
						name: `service bench database build, ${scale}`,
						value: buildSeconds,
						unit: 's',
						baseline: null,
						goal: 'a few minutes (the file is cached in data/ afterwards)',
						met: buildSeconds < 300,
					},
				]),
		{
			name: `service GET /api/v1/stats at ${scale}, p50`,
			value: httpP50,
			unit: 'ms',
			baseline: rawHttpP50,
			goal: `one keep-alive connection; ${rawNote}`,
			met: null,
		},
		{
			name: `service GET /api/v1/stats at ${scale}, p99`,
			value: httpP99,
			unit: 'ms',
			baseline: rawHttpMax,
			goal: `p99 < 3 ms; baseline p99 of ${RAW_HTTP_REQUESTS} raw requests = their max`,
			met: httpP99 < 3,
		},
		{
			name: `service requests per second at ${scale} (1 connection)`,
			value: sequential.perSecond,
			unit: 'req/s',
			baseline: rawHttp.perSecond,
			goal: `keep-alive; ${rawNote}`,
			met: null,
		},
		{
			name: `service requests per second at ${scale} (8 connections)`,
			value: parallel.perSecond,
			unit: 'req/s',
			baseline: rawHttp.perSecond,
			goal: 'keep-alive; baseline = raw aggregation on 1 connection (one synchronous SQLite thread, more do not help)',
			met: null,
		},
		{
			name: 'service speed-up over raw aggregation (HTTP p50)',
			value: httpSpeedup,
			unit: 'x',
			baseline: null,
			goal: `>= 100x (raw-aggregation p50 / roll-up p50, over HTTP, ${scale})`,
			met: httpSpeedup >= 100,
		},
		{
			name: `roll-up query in-process at ${scale}, p50`,
			value: rollupMs,
			unit: 'ms',
			baseline: rawMs,
			goal: 'key lookup + roll-ups, no HTTP; baseline = raw-event aggregation in-process (3 runs)',
			met: null,
		},
		{
			name: `roll-up query in-process at ${scale}, p99`,
			value: percentile(rollup, 99),
			unit: 'ms',
			baseline: null,
			goal: 'key lookup + roll-ups, no HTTP',
			met: null,
		},
		{
			name: 'roll-up query speed-up over raw aggregation (in-process p50)',
			value: rawMs / rollupMs,
			unit: 'x',
			baseline: null,
			goal: 'for reference; the >= 100x goal is judged over HTTP above',
			met: null,
		},
	];
	return [
		...figures.map((f) => ({
			...f,
			value: round3(f.value),
			baseline: f.baseline === null ? null : round3(f.baseline),
		})),
		...(await runImportMemoryBench()),
	];
}

const IMPORT_LINES = 2_000_000;

/** Writes `count` valid NDJSON events spread over the last 90 days. */
async function writeEventsFile(path: string, count: number): Promise<void> {
	const out = createWriteStream(path);
	const start = NOW.getTime() - 90 * DAY_MS;
	for (let i = 0; i < count; i += 1) {
		const spread = (i * 2_654_435_761) % 4_294_967_296;
		const at = new Date(start + (spread % (90 * DAY_MS))).toISOString();
		const line =
			spread % 20 === 0 ? `{"type":"send","ok":false,"at":"${at}"}` : `{"type":"send","ok":true,"at":"${at}"}`;
		if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
	}
	await new Promise<void>((resolve) => out.end(() => resolve()));
}

/** Runs the service CLI and returns its exit code, peak RSS (VmHWM, polled from /proc) and wall time. */
async function runCliMeasured(args: string[]): Promise<{ code: number | null; peakMb: number; seconds: number }> {
	const started = performance.now();
	const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/service-cli.ts', ...args], {
		stdio: 'ignore',
	});
	let peakKb = 0;
	const poll = setInterval(() => {
		try {
			const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
			if (hwm) peakKb = Math.max(peakKb, Number(hwm));
		} catch {
			// the process has ended
		}
	}, 20);
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	clearInterval(poll);
	return { code, peakMb: peakKb / 1024, seconds: (performance.now() - started) / 1000 };
}

/**
 * Peak RSS of `events import` of a 2-million-line file, beside the same CLI listing accounts (the process's
 * floor: Node, tsx and SQLite loaded). Streaming keeps the import near that floor whatever the file's size.
 */
export async function runImportMemoryBench(lines = IMPORT_LINES): Promise<BenchFigure[]> {
	mkdirSync('data', { recursive: true });
	const file = join('data', `bench-import-${lines}.ndjson`);
	const db = join('data', 'bench-import.sqlite');
	if (!existsSync(file)) await writeEventsFile(file, lines);
	for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
	const store = openStatsStore(db);
	store.createAccount('import');
	store.close();
	const floor = await runCliMeasured(['account', 'list', '--db', db]);
	const imported = await runCliMeasured(['events', 'import', file, '--account', 'import', '--db', db]);
	if (imported.code !== 0) throw new Error(`the import bench's import exited with ${imported.code}`);
	for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
	const label = `${(lines / 1_000_000).toString()}M lines`;
	return [
		{
			name: `service events import of ${label}, peak RSS`,
			value: round3(imported.peakMb),
			unit: 'MB',
			baseline: round3(floor.peakMb),
			goal: "bounded memory: within 100 MB of the CLI's own floor (baseline = peak RSS of `account list`); 292 MB before streaming",
			met: imported.peakMb - floor.peakMb <= 100,
		},
		{
			name: `service events import of ${label}, wall time`,
			value: round3(imported.seconds),
			unit: 's',
			baseline: null,
			goal: 'check, stage and store the whole file',
			met: null,
		},
	];
}

function printTable(figures: BenchFigure[]): void {
	const rows = figures.map((f) => [
		f.name,
		`${f.value} ${f.unit}`,
		f.baseline === null ? '' : `${f.baseline} ${f.unit}`,
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
	if (process.argv.includes('--import-only')) printTable(await runImportMemoryBench());
	else printTable(await runServiceBench({ events }));
}
