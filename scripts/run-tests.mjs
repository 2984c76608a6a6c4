// Node 20's test runner takes no globs, so the test files are listed here. --expose-gc: the heap figures
// some tests assert are read after a collection, not with whatever garbage happens to be around.
// The bundle `npm start` runs is built first, from the source as it is now: the tests that start the bot as a
// process run it.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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

function runFiles(files, concurrency) {
	const result = spawnSync(
		process.execPath,
		['--expose-gc', '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
		{ stdio: 'inherit' },
	);
	return result.status ?? 1;
}

await buildBundle();
if (process.argv.length > 2) process.exit(runFiles(process.argv.slice(2), 2));
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
