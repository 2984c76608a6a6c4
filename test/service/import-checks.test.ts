import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStatsStore } from '../../src/service/index.js';
import { runCli } from './cli-process.js';
import { makeTempDir } from './support.js';

const join1 = (at: string, extra = '') => `{"type":"join","at":"${at}"${extra}}`;

function countEvents(db: string): number {
	const store = openStatsStore(db);
	try {
		return (store.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
	} finally {
		store.close();
	}
}

describe('event import checks', () => {
	const temp = makeTempDir('stats-import-checks');
	after(() => temp.cleanup());
	let dbCount = 0;
	async function freshDb(account = 'acme'): Promise<string> {
		dbCount += 1;
		const db = join(temp.dir, `db-${dbCount}.sqlite`);
		assert.equal((await runCli(['account', 'create', account, '--db', db])).code, 0);
		return db;
	}
	const importFile = (file: string, db: string, ...flags: string[]) =>
		runCli(['events', 'import', file, '--account', 'acme', '--db', db, ...flags]);

	test('every bad line is reported as FILE:LINE: reason, the first 20 and then a count; nothing is imported', async () => {
		const db = await freshDb();
		const file = join(temp.dir, 'many-bad.ndjson');
		const future = new Date(Date.now() + 10 * 60_000).toISOString();
		const nearFuture = new Date(Date.now() + 60_000).toISOString();
		const lines = [
			join1('2026-11-20T10:00:00Z'),
			'{"type":"send",',
			join1('2026-02-30T10:00:00Z'),
			'{"type":"click","at":"2026-11-20T10:00:00Z"}',
			join1(future),
			join1(nearFuture),
			join1('2026-11-20T24:00:00Z'),
		];
		for (let i = 0; i < 20; i += 1) lines.push('not json');
		writeFileSync(file, `${lines.join('\n')}\n`);
		const result = await importFile(file, db);
		assert.equal(result.code, 1);
		const reported = result.stderr.split('\n').filter((line) => line.startsWith(`${file}:`) && /^.*:\d+: /.test(line));
		assert.equal(reported.length, 20, result.stderr);
		assert.match(result.stderr, new RegExp(`${file.replaceAll('.', '\\.')}:2: not valid JSON`));
		assert.match(result.stderr, /:3: "at" names a date or time that does not exist/);
		assert.match(result.stderr, /:4: unknown type "click"/);
		assert.match(result.stderr, /:5: "at" is in the future/);
		assert.doesNotMatch(result.stderr, /:6: /, 'one minute ahead is within the 5-minute tolerance');
		assert.match(result.stderr, /:7: "at" names a date or time that does not exist/);
		assert.match(result.stderr, /and 5 more bad lines \(25 in all/);
		assert.equal(countEvents(db), 0);
	});

	test('a line over 1 MiB is "line N: too long" and a 600 MiB line is read without holding it', async () => {
		const db = await freshDb();
		const file = join(temp.dir, 'huge-line.ndjson');
		// Sparse: 600 MiB of NUL bytes without a newline cost no disk, but the importer must read through them.
		const fd = openSync(file, 'w');
		try {
			writeSync(fd, `${join1('2026-11-20T10:00:00Z')}\n${'x'.repeat(1_048_577)}\n`);
			writeSync(fd, `\n${join1('2026-11-20T10:00:01Z')}\n`, 600 * 1_048_576);
		} finally {
			closeSync(fd);
		}
		const result = await importFile(file, db);
		assert.equal(result.code, 1, result.stderr);
		assert.match(result.stderr, /:2: line 2: too long/);
		assert.match(result.stderr, /:3: line 3: too long/);
		assert.doesNotMatch(result.stderr, /:4: |\n\s+at /);
		assert.equal(countEvents(db), 0);
	});

	test('the same file again imports nothing and says when it was imported; --allow-duplicate imports it again', async () => {
		const db = await freshDb();
		const file = join(temp.dir, 'twice.ndjson');
		writeFileSync(file, `${join1('2026-11-20T10:00:00Z')}\n${join1('2026-11-20T11:00:00Z')}\n`);
		assert.equal((await importFile(file, db)).code, 0);
		const again = await importFile(file, db);
		assert.equal(again.code, 1);
		assert.match(again.stderr, /already imported into "acme" at \d{4}-\d\d-\d\dT[\d:.]+Z/);
		assert.match(again.stderr, /--allow-duplicate/);
		assert.equal(countEvents(db), 2);
		const forced = await importFile(file, db, '--allow-duplicate');
		assert.equal(forced.code, 0, forced.stderr);
		assert.equal(countEvents(db), 4);
	});

	test('an id already stored for the account, or seen earlier in the file, is skipped', async () => {
		const db = await freshDb();
		const first = join(temp.dir, 'ids-1.ndjson');
		const second = join(temp.dir, 'ids-2.ndjson');
		writeFileSync(
			first,
			`${join1('2026-11-20T10:00:00Z', ',"id":"a"')}\n${join1('2026-11-20T10:00:00Z', ',"id":7')}\n`,
		);
		writeFileSync(
			second,
			[
				join1('2026-11-20T10:00:00Z', ',"id":"a"'),
				join1('2026-11-20T10:00:00Z', ',"id":"7"'),
				join1('2026-11-20T10:00:00Z', ',"id":"b"'),
				join1('2026-11-20T10:00:00Z', ',"id":"b"'),
				join1('2026-11-20T10:00:00Z'),
			].join('\n'),
		);
		assert.equal((await importFile(first, db)).code, 0);
		const result = await importFile(second, db);
		assert.equal(result.code, 0, result.stderr);
		assert.match(result.stdout, /Imported 2 events .* Skipped 3 events whose id was already stored/);
		assert.equal(countEvents(db), 4);
		const store = openStatsStore(db);
		try {
			assert.equal(store.computeStats('acme', new Date('2026-11-21T00:00:00Z')).data.joins.all_time, 4);
		} finally {
			store.close();
		}
	});

	test('importing into a revoked account imports and warns, naming the revocation', async () => {
		const db = await freshDb();
		assert.equal((await runCli(['account', 'revoke', 'acme', '--db', db])).code, 0);
		const file = join(temp.dir, 'revoked.ndjson');
		writeFileSync(file, `${join1('2026-11-20T10:00:00Z')}\n`);
		const result = await importFile(file, db);
		assert.equal(result.code, 0, result.stderr);
		assert.match(result.stderr, /warning: the account "acme" was revoked at \d{4}-\d\d-\d\dT/);
		assert.equal(countEvents(db), 1);
	});

	test('while an import reads and checks its file, other commands write at once', async (t) => {
		const db = await freshDb();
		assert.equal((await runCli(['account', 'create', 'other', '--db', db])).code, 0);
		const fifo = join(temp.dir, 'slow.ndjson');
		const made = spawn('mkfifo', [fifo]);
		await new Promise((resolve) => made.once('exit', resolve));
		const importing = runCli(['events', 'import', fifo, '--account', 'acme', '--db', db]);
		// Opening the FIFO for writing waits for the importer to open it for reading.
		const writer = createWriteStream(fifo);
		t.after(() => writer.destroy());
		await new Promise<void>((resolve) => writer.write(`${join1('2026-11-20T10:00:00Z')}\n`, () => resolve()));
		const revoked = await runCli(['account', 'revoke', 'other', '--db', db]);
		assert.equal(revoked.code, 0, revoked.stderr);
		await new Promise<void>((resolve) => writer.end(`${join1('2026-11-20T10:00:01Z')}\n`, () => resolve()));
		const result = await importing;
		assert.equal(result.code, 0, result.stderr);
		assert.equal(countEvents(db), 2);
	});

	test('SIGINT during an import stores nothing and leaves no scratch file', { timeout: 120_000 }, async (t) => {
		const db = await freshDb();
		const fifo = join(temp.dir, 'interrupted.ndjson');
		const made = spawn('mkfifo', [fifo]);
		await new Promise((resolve) => made.once('exit', resolve));
		const child = spawn(
			process.execPath,
			['--import', 'tsx', 'src/service/service-cli.ts', 'events', 'import', fifo, '--account', 'acme', '--db', db],
			{ cwd: join(import.meta.dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
		let running = true;
		const exited = new Promise<number | null>((resolve) =>
			child.once('exit', (code) => {
				running = false;
				resolve(code);
			}),
		);
		// Whatever happens below, no importer outlives the test.
		t.after(() => {
			if (running) child.kill('SIGKILL');
		});
		const writer = createWriteStream(fifo);
		t.after(() => writer.destroy());
		await new Promise<void>((resolve) => writer.write(`${join1('2026-11-20T10:00:00Z')}\n`, () => resolve()));
		// The scratch file exists once the importer reads: wait for it (a loaded machine starts tsx slowly), then
		// interrupt. A SIGINT sent while the process is still starting would test start-up, not the import.
		const deadline = Date.now() + 90_000;
		const scratchExists = () => readdirSync(temp.dir).some((name) => name.startsWith('.import-'));
		while (!scratchExists() && running && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
		assert.ok(scratchExists(), `the importer never started reading: ${stderr}`);
		child.kill('SIGINT');
		// Node's exit waits for a read blocked on the pipe, so the writer hangs up once the importer has given up.
		const said = Date.now() + 30_000;
		while (!/interrupted/.test(stderr) && running && Date.now() < said) {
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
		writer.destroy();
		assert.equal(await exited, 1, stderr);
		assert.match(stderr, /interrupted; nothing was imported/);
		assert.deepEqual(
			readdirSync(temp.dir).filter((name) => name.startsWith('.import-')),
			[],
		);
		assert.equal(countEvents(db), 0);
	});

	test('a command waits for a write lock held longer than 5 s instead of failing with "database is locked"', async () => {
		const db = await freshDb();
		const holder = openStatsStore(db);
		let revokeDone = false;
		let revoking: ReturnType<typeof runCli>;
		try {
			holder.db.exec('BEGIN IMMEDIATE');
			revoking = runCli(['account', 'revoke', 'acme', '--db', db]);
			void revoking.then(() => (revokeDone = true));
			// The old busy timeout gave up after 5 s; holding the lock past that is what this test is about.
			const heldUntil = Date.now() + 6500;
			while (Date.now() < heldUntil) {
				await new Promise((resolve) => setTimeout(resolve, 250));
				assert.equal(revokeDone, false, 'the revoke ended while the lock was held');
			}
			holder.db.exec('COMMIT');
		} finally {
			holder.close();
		}
		const result = await revoking;
		assert.equal(result.code, 0, result.stderr);
	});
});
