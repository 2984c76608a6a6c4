// Bundles the bot into dist/ for `npm start`: plain JavaScript starts in about half the time of the TypeScript
// run through tsx, whose loader thread every module waits on (docs/benchmarks.md, "Start-up from a bundle").
// Packages stay external (loaded from node_modules as usual); what is loaded only on demand (the stores' drivers,
// the dashboard) stays a chunk of its own, loaded on demand.
//
// `npm ci` runs it (prepare), and so do every `npm start` (prestart) and the tests: a bundle older than the source
// would run yesterday's bot. When the source has not changed since the last build it writes nothing, so bots
// started from one folder at once (HTTP workers) never see dist/ change under them; when it has, every file is
// replaced atomically, chunks before the entry points that import them.
//   node scripts/build.mjs
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
/** What the last build read and wrote, and a fingerprint of what it read. */
const STAMP = join(DIST, 'inputs.json');
/** Files of an older build are removed this long after they stopped being part of the bundle. */
const STALE_AFTER_MS = 10 * 60_000;

/**
 * `main` is what `npm start` runs; `chart-worker` the render pool's worker file. `start-bot` and `config` are the
 * bot's parts as the benchmark starts it in a process of its own; they share their chunks with `main`. Every chunk
 * lands directly in dist/, one level below the project root like src/ (src/project-files.ts).
 */
const ENTRY_POINTS = {
	main: 'src/app/main.ts',
	'chart-worker': 'src/render/chart-worker.ts',
	'start-bot': 'src/app/start-bot.ts',
	config: 'src/config.ts',
};

/** The source files read, this script and esbuild's version: a change to any of them changes the bundle. */
function fingerprint(inputs) {
	const hash = createHash('sha256')
		.update(esbuildVersion)
		.update(readFileSync(fileURLToPath(import.meta.url)));
	for (const input of inputs) hash.update(input).update(readFileSync(join(ROOT, input)));
	return hash.digest('hex');
}

function isUpToDate() {
	try {
		const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
		return (
			stamp.fingerprint === fingerprint(stamp.inputs) && stamp.outputs.every((file) => existsSync(join(DIST, file)))
		);
	} catch {
		return false; // no stamp yet, or an input is gone
	}
}

/** A reader sees the old file or the new one, never half of one. */
function writeAtomically(path, contents) {
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, contents);
	renameSync(temporary, path);
}

const isEntryFile = (path) => basename(path).replace(/\.map$/u, '') in entryFileNames;
const entryFileNames = Object.fromEntries(Object.keys(ENTRY_POINTS).map((name) => [`${name}.js`, true]));

/** Builds the bundle unless the one in dist/ was built from the same source; says whether it built. */
export async function buildBundle() {
	if (isUpToDate()) return false;
	const result = await build({
		absWorkingDir: ROOT,
		entryPoints: ENTRY_POINTS,
		outdir: DIST,
		bundle: true,
		splitting: true,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		packages: 'external',
		// Maps cost nothing unless asked for: NODE_OPTIONS=--enable-source-maps puts the .ts lines in stack traces.
		sourcemap: true,
		metafile: true,
		write: false,
		logLevel: 'warning',
	});
	mkdirSync(DIST, { recursive: true });
	// Chunks first: a bot starting meanwhile finds every chunk that the entry point it reads imports.
	const files = [...result.outputFiles].sort((a, b) => Number(isEntryFile(a.path)) - Number(isEntryFile(b.path)));
	for (const file of files) writeAtomically(file.path, file.contents);
	const outputs = files.map((file) => relative(DIST, file.path));
	removeStaleFiles(new Set(outputs));
	const inputs = Object.keys(result.metafile.inputs).sort();
	writeAtomically(STAMP, `${JSON.stringify({ fingerprint: fingerprint(inputs), inputs, outputs }, null, '\t')}\n`);
	return true;
}

/**
 * An older build's chunks go only once they are old: a bot that started from that build a moment ago may still
 * load one of them (its store driver or the dashboard).
 */
function removeStaleFiles(current) {
	for (const name of readdirSync(DIST)) {
		const path = join(DIST, name);
		if (current.has(name) || path === STAMP) continue;
		if (Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path, { force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildBundle();
