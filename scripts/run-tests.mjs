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

await buildBundle();
const files = process.argv.length > 2 ? process.argv.slice(2) : findTests('test').sort();
const result = spawnSync(
	process.execPath,
	['--expose-gc', '--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
	{ stdio: 'inherit' },
);
process.exit(result.status ?? 1);
