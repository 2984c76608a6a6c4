import assert from 'node:assert/strict';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InvalidEventError, openStatsStore } from '../../src/service/index.js';
import { runCli } from './cli-process.js';
import { makeTempDir } from './support.js';

const DAY_MS = 86_400_000;

async function writeLines(path: string, count: number, lineAt: (i: number) => string): Promise<void> {
	const out = createWriteStream(path);
	for (let i = 0; i < count; i += 1) {
		if (!out.write(`${lineAt(i)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
	}
	await new Promise<void>((resolve) => out.end(() => resolve()));
}

function countEvents(db: string): number {
	const store = openStatsStore(db);
	try {
		return (store.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
	} finally {
		store.close();
	}
}

describe('event import', () => {
	const temp = makeTempDir('stats-import');
	after(() => temp.cleanup());

	test('a file with one bad line imports nothing and names the line', async () => {
		const db = join(temp.dir, 'bad-line.sqlite');
		openStatsStore(db).close();
		assert.equal((await runCli(['account', 'create', 'acme', '--db', db])).code, 0);
		const file = join(temp.dir, 'bad.ndjson');
		writeFileSync(
			file,
			[
				'{"type":"send","ok":true,"at":"2026-11-20T10:00:00Z"}',
				'{"type":"send","ok":false,"at":"2026-11-20T10:00:01Z"}',
				'',
				'{"type":"join","at":"2026-11-20T10:00:02Z"}',
				'{"type":"send","ok":"yes","at":"2026-11-20T10:00:03Z"}',
				'{"type":"join","at":"2026-11-20T10:00:04Z"}',
			].join('\n'),
		);
		const result = await runCli(['events', 'import', file, '--account', 'acme', '--db', db]);
		assert.equal(result.code, 1);
		assert.match(result.stderr, /bad\.ndjson:5: /);
		assert.equal(countEvents(db), 0);
	});

	const refusedLines: [string, string][] = [
		['broken JSON', '{"type":"send",'],
		['a time without a zone', '{"type":"join","at":"2026-11-20T10:00:00"}'],
		['an unknown type', '{"type":"click","at":"2026-11-20T10:00:00Z"}'],
		['a JSON array', '[1,2]'],
	];
	for (const [what, line] of refusedLines) {
		test(`${what} is refused with its line number`, async () => {
			const db = join(temp.dir, `refused-${what.replaceAll(' ', '-')}.sqlite`);
			assert.equal((await runCli(['account', 'create', 'acme', '--db', db])).code, 0);
			const file = join(temp.dir, `refused-${what.replaceAll(' ', '-')}.ndjson`);
			writeFileSync(file, `{"type":"join","at":"2026-11-20T10:00:00Z"}\n${line}\n`);
			const result = await runCli(['events', 'import', file, '--account', 'acme', '--db', db]);
			assert.equal(result.code, 1);
			assert.match(result.stderr, /\.ndjson:2: /);
			assert.equal(countEvents(db), 0);
		});
	}

	test('importing into an unknown account fails and stores nothing', async () => {
		const db = join(temp.dir, 'unknown.sqlite');
		const file = join(temp.dir, 'one.ndjson');
		writeFileSync(file, '{"type":"join","at":"2026-11-20T10:00:00Z"}\n');
		const result = await runCli(['events', 'import', file, '--account', 'nobody', '--db', db]);
		assert.equal(result.code, 1);
		assert.match(result.stderr, /nobody/);
		assert.equal(countEvents(db), 0);
	});

	test('importEvents validates every event before storing any', () => {
		const store = openStatsStore(join(temp.dir, 'api.sqlite'));
		try {
			store.createAccount('acme');
			assert.throws(
				() =>
					store.importEvents('acme', [
						{ type: 'send', ok: true, at: '2026-11-20T10:00:00Z' },
						{ type: 'join', at: 'yesterday' },
					]),
				InvalidEventError,
			);
			assert.equal(store.computeStats('acme', new Date('2026-11-21T00:00:00Z')).data.sends.all_time, 0);
		} finally {
			store.close();
		}
	});

	test('300,000 events import through the CLI and the roll-ups agree with a count of the raw events', async () => {
		const db = join(temp.dir, 'large.sqlite');
		const file = join(temp.dir, 'large.ndjson');
		const start = Date.parse('2026-09-01T00:00:00Z');
		// A multiplicative hash spreads the events over 90 days and the three kinds without a PRNG.
		await writeLines(file, 300_000, (i) => {
			const spread = (i * 2_654_435_761) % 4_294_967_296;
			const at = new Date(start + (spread % (90 * DAY_MS))).toISOString();
			const kind = spread % 20;
			if (kind === 0) return `{"type":"send","ok":false,"at":"${at}"}`;
			if (kind < 4) return `{"type":"join","at":"${at}"}`;
			return `{"type":"send","ok":true,"at":"${at}"}`;
		});
		assert.equal((await runCli(['account', 'create', 'bulk', '--db', db])).code, 0);
		const result = await runCli(['events', 'import', file, '--account', 'bulk', '--db', db]);
		assert.equal(result.code, 0, result.stderr);
		assert.match(result.stdout, /Imported 300000 events/);

		const store = openStatsStore(db);
		try {
			const rawByDay = store.db
				.prepare(
					`SELECT at / ${DAY_MS} AS day, SUM(kind = 0) AS ok, SUM(kind = 1) AS failed, SUM(kind = 2) AS joins
					FROM events GROUP BY day ORDER BY day`,
				)
				.all();
			const rollups = store.db
				.prepare('SELECT day, sends_ok AS ok, sends_failed AS failed, joins FROM daily_rollups ORDER BY day')
				.all();
			assert.deepEqual(rollups, rawByDay);
			const totals = store.db.prepare('SELECT sends_ok + sends_failed + joins AS n FROM accounts').get() as {
				n: number;
			};
			assert.equal(totals.n, 300_000);
			const now = new Date('2026-11-15T12:00:00Z');
			assert.deepEqual(store.computeStats('bulk', now), store.computeStatsFromRawEvents('bulk', now));
		} finally {
			store.close();
		}
	});
});
