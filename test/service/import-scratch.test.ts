// An import killed with SIGKILL cannot remove its scratch file: the next import does, and leaves alone the
// scratch file of an import still running.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseEventLine } from '../../src/service/events.js';
import { ImportStaging, removeStaleScratchFiles } from '../../src/service/import-staging.js';
import { runCli } from './cli-process.js';
import { makeTempDir } from './support.js';

const REPO = join(import.meta.dirname, '..', '..');
const scratchFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('.import-'));
const exitOf = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** A pid no process has any more: a child that has exited. */
async function deadPid(): Promise<number> {
	const child = spawn(process.execPath, ['-e', '']);
	await exitOf(child);
	assert.ok(child.pid);
	return child.pid;
}

describe('scratch files of killed imports', () => {
	const temp = makeTempDir('stats-import-scratch');
	after(() => temp.cleanup());

	test(
		'an import killed with SIGKILL leaves its scratch file; the next import removes it',
		{ timeout: 120_000 },
		async (t) => {
			const dir = join(temp.dir, 'killed');
			const db = join(dir, 'service.sqlite');
			assert.equal((await runCli(['account', 'create', 'acme', '--db', db])).code, 0);
			const fifo = join(dir, 'slow.ndjson');
			await exitOf(spawn('mkfifo', [fifo]));
			const child = spawn(
				process.execPath,
				['--import', 'tsx', 'src/service/service-cli.ts', 'events', 'import', fifo, '--account', 'acme', '--db', db],
				{ cwd: REPO, stdio: 'ignore' },
			);
			const exited = exitOf(child);
			t.after(() => child.kill('SIGKILL'));
			const writer = createWriteStream(fifo);
			t.after(() => writer.destroy());
			await new Promise<void>((resolve) =>
				writer.write('{"type":"join","at":"2026-11-20T10:00:00Z"}\n', () => resolve()),
			);
			const deadline = Date.now() + 90_000;
			while (scratchFiles(dir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
			child.kill('SIGKILL');
			await exited;
			writer.destroy();
			const left = scratchFiles(dir);
			assert.equal(left.length, 1, `SIGKILL leaves the scratch file, and no side file: ${left.join(', ')}`);
			assert.match(left[0] ?? '', new RegExp(`^\\.import-h[0-9a-f]{8}-${child.pid}-[0-9a-f]{12}\\.sqlite$`));

			const file = join(dir, 'events.ndjson');
			writeFileSync(file, '{"type":"join","at":"2026-11-20T10:00:00Z"}\n');
			const next = await runCli(['events', 'import', file, '--account', 'acme', '--db', db]);
			assert.equal(next.code, 0, next.stderr);
			assert.match(
				next.stderr,
				new RegExp(`removed 1 scratch file\\(s\\) left by an import that was killed: ${left[0]}`),
			);
			assert.deepEqual(scratchFiles(dir), []);
		},
	);

	test('a batch being staged writes no side file beside the scratch file', (t) => {
		const dir = join(temp.dir, 'batch');
		mkdirSync(dir);
		const staging = new ImportStaging(dir);
		t.after(() => staging.discard());
		staging.add(parseEventLine('{"type":"join","at":"2026-11-20T10:00:00Z","id":"a"}'));
		staging.add(parseEventLine('{"type":"send","ok":true,"at":"2026-11-20T10:01:00Z","id":"b"}'));
		// A kill at this moment leaves exactly what is listed here.
		assert.deepEqual(scratchFiles(dir), [staging.path.split('/').at(-1)]);
		assert.deepEqual(staging.finish(), { staged: 2, duplicateIdsInFile: 0 });
	});

	test('only files no running import owns are removed', async (t) => {
		const dir = join(temp.dir, 'rules');
		mkdirSync(dir);
		const dead = await deadPid();
		const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
		t.after(() => sleeper.kill('SIGKILL'));
		const running = new ImportStaging(dir);
		t.after(() => running.discard());
		const here = /^\.import-h([0-9a-f]{8})-/.exec(running.path.split('/').at(-1) ?? '')?.[1];
		assert.ok(here);
		const plant = (name: string) => {
			writeFileSync(join(dir, name), 'scratch');
			return name;
		};
		const day = 24 * 3_600_000;
		const stale = [
			plant(`.import-h${here}-${dead}-aaaaaaaaaaaa.sqlite`),
			plant(`.import-h${here}-${dead}-aaaaaaaaaaaa.sqlite-journal`),
			plant(`.import-${dead}-bbbbbbbbbbbb.sqlite`), // named before the host was added
			plant(`.import-h00000000-${dead}-cccccccccccc.sqlite`), // another host's, untouched for two days
		];
		utimesSync(join(dir, stale[3]!), new Date(Date.now() - 2 * day), new Date(Date.now() - 2 * day));
		const kept = [
			running.path.split('/').at(-1)!, // this process's import, running
			plant(`.import-h${here}-${sleeper.pid}-dddddddddddd.sqlite`), // another process's, running
			plant(`.import-h00000000-${dead}-eeeeeeeeeeee.sqlite`), // another host's, fresh: its pid says nothing here
			plant('.import-notes.txt'),
		];
		assert.deepEqual(removeStaleScratchFiles(dir).sort(), [...stale].sort());
		assert.deepEqual(scratchFiles(dir).sort(), [...kept].sort());
	});
});
