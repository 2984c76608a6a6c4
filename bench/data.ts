// `npm run bench -- data`: forgetting a member and purging a server in a SQLite store of 100,000 member links and
// 20,000 servers (each with its key, settings and a report), timed and with the heap sampled throughout, beside
// the same in a store a tenth the size: a forget walks the store once, holding one record at a time.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { openCoordinator } from '../src/core/claims.js';
import { historyAccountId } from '../src/history/account-id.js';
import { forgetMember } from '../src/privacy/forget-member.js';
import { purgeServer } from '../src/privacy/purge-server.js';
import { openStores } from '../src/store/open-stores.js';
import type { BenchFigure } from './figures.js';

const LINKS = 100_000;
const SERVERS = 20_000;
const SMALL = 10;
/** Seconds, not minutes. */
const GOAL_SECONDS = 10;
/** Heap growth that still counts as bounded: the walk holds a page of rows, never the store. */
const BOUNDED_MIB = 8;
const BATCH = 5_000;
const MIB = 1024 * 1024;

const memberId = (index: number) => `4${String(index).padStart(17, '0')}`;
const serverId = (index: number) => `9${String(index).padStart(17, '0')}`;
const stored = (value: unknown) => JSON.stringify({ value, expires: null });
const linkRecord = (accountName: string, linkedBy: string | null) => ({
	v: 1,
	kid: 'bench',
	sealedKey: 'sealed',
	keyHint: 'abcd',
	accountName,
	verified: true,
	linkedAt: 1_700_000_000_000,
	linkedBy,
});

/** Rows as Keyv stores them on SQLite (`<namespace>:<key>`), inserted a batch per statement. */
async function seed(file: string, links: number, servers: number): Promise<void> {
	const db = new sqlite3.Database(file);
	const run = async (sql: string, ...values: unknown[]) =>
		new Promise<void>((resolve, reject) => db.run(sql, values, (error) => (error ? reject(error) : resolve())));
	const insert = async (rows: [string, string][]) =>
		run(
			'INSERT INTO keyv (key, value) SELECT json_extract(value, "$[0]"), json_extract(value, "$[1]") FROM json_each(?)',
			JSON.stringify(rows),
		);
	let rows: [string, string][] = [];
	const add = async (key: string, value: unknown) => {
		rows.push([key, stored(value)]);
		if (rows.length >= BATCH) {
			await insert(rows);
			rows = [];
		}
	};
	await run('BEGIN');
	for (let index = 0; index < links; index += 1) {
		await add(`links:user:${memberId(index)}`, linkRecord(`Account_${index}`, null));
	}
	for (let index = 0; index < servers; index += 1) {
		const guildId = serverId(index);
		// Every server's key linked by the member who is forgotten below for the first ten, by others after.
		const admin = index < 10 ? memberId(0) : memberId(index + 1);
		await add(`links:guild:${guildId}`, linkRecord(`Server_${index}`, admin));
		await add(`settings:${guildId}`, { v: 1, defaultDays: 7 });
		await add(`reports:report:${guildId}:1`, { v: 1, guildId, channelId: '1', createdBy: admin, every: 'daily' });
	}
	await add(`history:${historyAccountId('Account_0')}`, { v: 1, updatedAt: 0, days: { '2026-01-01': {} } });
	await add(`history:${historyAccountId('Server_10')}`, { v: 1, updatedAt: 0, days: { '2026-01-01': {} } });
	if (rows.length > 0) await insert(rows);
	await run('COMMIT');
	await new Promise<void>((resolve) => db.close(() => resolve()));
}

interface Measured {
	seconds: number;
	heapGrowthMiB: number;
}

async function measureTime(work: () => Promise<unknown>): Promise<Measured> {
	const started = performance.now();
	await work();
	return { seconds: (performance.now() - started) / 1000, heapGrowthMiB: Number.NaN };
}

/** What the heap holds once garbage is collected (the bench runs with --expose-gc). */
function liveHeap(): number {
	globalThis.gc?.();
	return process.memoryUsage().heapUsed;
}

/**
 * Runs `work` with the live heap sampled every 50 ms (collected first, so garbage the collector has not reached yet
 * does not count); the growth is the peak over the heap before it.
 */
async function measureHeap(work: () => Promise<unknown>): Promise<Measured> {
	const before = liveHeap();
	let peak = before;
	const sampler = setInterval(() => {
		peak = Math.max(peak, liveHeap());
	}, 50);
	const started = performance.now();
	try {
		await work();
	} finally {
		clearInterval(sampler);
	}
	peak = Math.max(peak, liveHeap());
	return { seconds: (performance.now() - started) / 1000, heapGrowthMiB: (peak - before) / MIB };
}

/**
 * Seeds a store, then forgets a member and purges a server in it. With `sampleHeap` the live heap is sampled
 * throughout (collecting garbage every 50 ms slows the work, so the times of such a run are not used).
 */
async function measureStore(
	links: number,
	servers: number,
	sampleHeap: boolean,
): Promise<{ forget: Measured; purge: Measured }> {
	const measure = sampleHeap ? measureHeap : measureTime;
	const dir = mkdtempSync(join(tmpdir(), 'adstats-bench-data-'));
	const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
	try {
		// Opened once first, so the table exists and the file is in WAL mode before the rows go in.
		await (await openStores(storeUrl)).close();
		await seed(join(dir, 'bot.sqlite'), links, servers);
		const stores = await openStores(storeUrl);
		const coordinator = await openCoordinator(storeUrl);
		const ctx = { stores, coordinator, config: { storeUrl, linkSecret: randomBytes(32) } };
		try {
			let result: Awaited<ReturnType<typeof forgetMember>> | null = null;
			const forget = await measure(async () => {
				result = await forgetMember(ctx, memberId(0));
			});
			if (result === null || (result as { deleted: Map<string, number> }).deleted.get('link') !== 1) {
				throw new Error('the member was not forgotten');
			}
			let purged: Map<string, number> = new Map();
			const purge = await measure(async () => {
				purged = await purgeServer(ctx, serverId(10));
			});
			if (purged.get('report') !== 1 || purged.get('history') !== 1) throw new Error('the server was not purged');
			return { forget, purge };
		} finally {
			await coordinator.close();
			await stores.close();
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function runDataBench(): Promise<BenchFigure[]> {
	const small = await measureStore(LINKS / SMALL, SERVERS / SMALL, false);
	const large = await measureStore(LINKS, SERVERS, false);
	const smallHeap = await measureStore(LINKS / SMALL, SERVERS / SMALL, true);
	const largeHeap = await measureStore(LINKS, SERVERS, true);
	const size = `${LINKS.toLocaleString('en')} links, ${SERVERS.toLocaleString('en')} servers (SQLite)`;
	const baseline = `baseline: a tenth of the store`;
	const figures: BenchFigure[] = [];
	for (const [what, measured, tenth, heap, tenthHeap] of [
		['forget a member', large.forget, small.forget, largeHeap.forget, smallHeap.forget],
		['purge a server', large.purge, small.purge, largeHeap.purge, smallHeap.purge],
	] as const) {
		figures.push(
			{
				name: `${what}, ${size}`,
				value: measured.seconds,
				unit: 's',
				baseline: tenth.seconds,
				goal: `under ${GOAL_SECONDS} s (${baseline})`,
				met: measured.seconds < GOAL_SECONDS,
			},
			{
				name: `${what}: heap growth, ${size}`,
				value: heap.heapGrowthMiB,
				unit: 'MiB',
				baseline: tenthHeap.heapGrowthMiB,
				goal: `bounded: under ${BOUNDED_MIB} MiB (${baseline})`,
				met: heap.heapGrowthMiB < BOUNDED_MIB,
			},
		);
	}
	return figures;
}
