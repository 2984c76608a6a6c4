// Node 20's test runner takes no globs, so the test files are listed here. --expose-gc: the heap figures
// some tests assert are read after a collection, not with whatever garbage happens to be around.
// The bundle `npm start` runs is built first, from the source as it is now: the tests that start the bot as a
// process run it.
//   node scripts/run-tests.mjs            every file (npm test, CI)
//   node scripts/run-tests.mjs --quick    the files that start no process or browser (npm run test:quick)
//   node scripts/run-tests.mjs FILE…      the files given
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildBundle } from './build.mjs';

function findTests(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return findTests(path);
		return entry.name.endsWith('.test.ts') ? [path] : [];
	});
}

/**
 * Files that load both cores for minutes (several bot processes spending the whole REST budget): beside them, a
 * file whose steps answer Discord's 3 s interaction deadline (the demo) got too little CPU and missed it. In a full
 * run they go last, one at a time, after every other file.
 */
const ALONE = [
	'test/periodic/rest-budget-processes.test.ts',
	'test/periodic/rest-proxy.test.ts',
	// Builds the image: native modules compiled on both cores for minutes.
	'test/container/container.test.ts',
];

/**
 * What --quick leaves out: a file that starts a process (the bot, the dashboard, a CLI, the demo, the soaks' bot
 * processes) or a browser, which is what takes the minutes. Told by what the file imports, not by a list: it, or a
 * module of the repository outside src/ that it imports (its helpers, the stand-in, bench/ and scripts/ modules),
 * imports node:child_process or playwright-core. Product code is not followed: the only process it starts is the
 * sharding manager's, under the bot's own entry point, which a test reaches only through a process of its own.
 */
const STARTS_PROCESSES = /\bfrom\s+['"](?:(?:node:)?child_process|playwright-core)['"]/;
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function startsProcesses(file, seen = new Set()) {
	if (seen.has(file) || file.split(/[\\/]/)[0] === 'src') return false;
	seen.add(file);
	const text = readFileSync(file, 'utf8');
	if (STARTS_PROCESSES.test(text)) return true;
	for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
		const target = relative('.', resolve(dirname(file), specifier));
		// Sources import each other as .js (TypeScript's rule); the file on disk is the .ts.
		const onDisk = existsSync(target) ? target : target.replace(/\.js$/, '.ts');
		if (existsSync(onDisk) && startsProcesses(onDisk, seen)) return true;
	}
	return false;
}

function runFiles(files, concurrency) {
	const result = spawnSync(
		process.execPath,
		['--expose-gc', '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
		{ stdio: 'inherit' },
	);
	return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args[0] === '--quick') {
	// No file left in starts the bundle, so it is not built.
	const quick = findTests('test')
		.sort()
		.filter((file) => !startsProcesses(file));
	// Three lanes: a quick file mostly waits (timers, loopback, its start under tsx), see docs/development.md.
	process.exit(runFiles(quick, 3));
}
await buildBundle();
if (args.length > 0) process.exit(runFiles(args, 2));
const all = findTests('test').sort();
const together = runFiles(
	all.filter((file) => !ALONE.includes(file)),
	2,
);
const alone = runFiles(
	all.filter((file) => ALONE.includes(file)),
	1,
);
process.exit(together !== 0 ? together : alone);
