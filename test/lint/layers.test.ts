// Each import rule of .dependency-cruiser.cjs fails on a planted import: a rule that cannot fail would let
// the layers drift back into a tangle without anyone noticing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs the project's rules over a throw-away tree; returns each importing file with the rules it breaks. */
async function brokenRules(files: Record<string, string>): Promise<Map<string, string[]>> {
	const dir = mkdtempSync(join(tmpdir(), 'layers-'));
	dirs.push(dir);
	copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
	writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext' } }));
	for (const [path, source] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), source);
	}
	const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
	const run = promisify(execFile);
	const args = [...roots, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
	const { stdout } = await run(DEPCRUISE, args, { cwd: dir }).catch((error: { stdout?: string }) => ({
		stdout: error.stdout ?? '',
	}));
	const result = JSON.parse(stdout) as { summary: { violations: { from: string; rule: { name: string } }[] } };
	const byFile = new Map<string, string[]>();
	for (const { from, rule } of result.summary.violations) {
		const rules = byFile.get(from) ?? [];
		if (!rules.includes(rule.name)) rules.push(rule.name);
		byFile.set(from, rules.sort());
	}
	return byFile;
}

const leaf = 'export const x = 1;\n';
const importing = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;

// One tree holds every planted import (one run of dependency-cruiser); each file breaks the rules named beside it.
const PLANTED: { file: string; source: string; broken: string[] }[] = [
	{
		file: 'src/stats/uses-discord.ts',
		source: importing('../discord/router.js'),
		broken: ['core-knows-no-front-end', 'layer-stats-imports-only-below'],
	},
	{
		file: 'src/settings/uses-web.ts',
		source: importing('../web/server.js'),
		broken: ['core-knows-no-front-end', 'layer-settings-imports-only-below'],
	},
	{
		file: 'src/reports/uses-commands.ts',
		source: importing('../../commands/stats.js'),
		broken: ['core-knows-no-front-end', 'layer-jobs-imports-only-below'],
	},
	// links -> history is upward; with history -> links below, the two folders would import each other.
	{
		file: 'src/links/uses-history.ts',
		source: importing('../history/record.js'),
		broken: ['layer-links-imports-only-below'],
	},
	{ file: 'src/history/record.ts', source: importing('../links/model.js'), broken: [] },
	{
		file: 'src/discord/uses-commands.ts',
		source: importing('../../commands/stats.js'),
		broken: ['layer-discord-imports-only-below'],
	},
	{
		file: 'commands/uses-app.ts',
		source: importing('../src/app/services.js'),
		broken: ['layer-commands-imports-only-below'],
	},
	// Goals sit above stats: a reply is handed the goals it shows.
	{
		file: 'src/stats/uses-goals.ts',
		source: importing('../goals/store.js'),
		broken: ['layer-stats-imports-only-below'],
	},
	{ file: 'src/goals/uses-stats.ts', source: importing('../stats/show.js'), broken: [] },
	{ file: 'src/watch/uses-reports.ts', source: importing('../reports/store.js'), broken: ['no-sibling-imports'] },
	{ file: 'src/stats/cycle-a.ts', source: importing('./cycle-b.js'), broken: ['no-circular'] },
	// A cycle is reported once, at the first file of it.
	{ file: 'src/stats/cycle-b.ts', source: importing('./cycle-a.js'), broken: [] },
	{ file: 'src/service/uses-links.ts', source: importing('../links/model.js'), broken: ['stats-service-stands-alone'] },
	{
		file: 'src/store/uses-second-sqlite.ts',
		source: "import Database from 'better-sqlite3';\nexport const db = Database;\n",
		broken: ['bot-opens-sqlite-through-one-library'],
	},
	{
		file: 'src/service/uses-better-sqlite.ts',
		source: "import Database from 'better-sqlite3';\nexport const db = Database;\n",
		broken: [],
	},
	// The bot names its commands; only registration and the doctor build their definitions.
	{
		file: 'commands/uses-definitions.ts',
		source: importing('./definitions/stats.js'),
		broken: ['bot-does-not-build-command-definitions'],
	},
	{
		file: 'src/app/uses-definitions.ts',
		source: importing('../../commands/definitions/index.js'),
		broken: ['bot-does-not-build-command-definitions'],
	},
	{ file: 'src/app/register-cli.ts', source: importing('../../commands/definitions/index.js'), broken: [] },
	{ file: 'src/app/doctor/discord-checks.ts', source: importing('../../../commands/definitions/index.js'), broken: [] },
	// Down the layers: allowed.
	{ file: 'commands/stats.ts', source: importing('../src/stats/show.js'), broken: [] },
	{ file: 'src/stats/show.ts', source: importing('../history/record.js'), broken: [] },
];
const LEAVES = [
	'src/discord/router.ts',
	'src/web/server.ts',
	'src/links/model.ts',
	'src/app/services.ts',
	'src/reports/store.ts',
	'src/goals/store.ts',
	'commands/definitions/index.ts',
	'commands/definitions/stats.ts',
];

test('each import rule fails on its planted import, and imports down the layers pass', async () => {
	const files = Object.fromEntries([
		...PLANTED.map(({ file, source }) => [file, source] as const),
		...LEAVES.map((file) => [file, leaf] as const),
	]);
	const broken = await brokenRules(files);
	for (const { file, broken: expected } of PLANTED) {
		assert.deepEqual(broken.get(file) ?? [], expected, file);
	}
});
