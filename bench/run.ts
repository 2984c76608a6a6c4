// `npm run bench`: every figure beside a baseline measured in the same run; prints a table and
// writes bench/results.json. Reports only: a missed goal does not fail anything.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { runChartBench } from './chart.js';
import { runDataBench } from './data.js';
import type { BenchFigure } from './figures.js';
import { runHistoryBench } from './history.js';
import { runHistoryStatsBench } from './history-stats.js';
import { runJobsBench } from './jobs.js';
import { runNotesBench } from './notes.js';
import { runProcessBench } from './process.js';
import { runScaleBench } from './scale.js';
import { runServiceBench } from './service.js';
import { runStatsBench } from './stats.js';
import { runWebBench } from './web.js';
import { runWebhooksBench } from './webhooks.js';

// Each part has a short name: `npm run bench -- stats process` runs only those parts (the whole bench
// takes minutes); bench/results.json then holds only their figures.
const sections: [string, string, () => Promise<BenchFigure[]>][] = [
	['stats', '/stats through the bot and the Discord stand-in', runStatsBench],
	['process', 'memory and start-up', () => runProcessBench()],
	['scale', 'shards, processes and HTTP interactions', () => runScaleBench()],
	['chart', 'chart rendering', () => runChartBench()],
	['history', 'history sampler', () => runHistoryBench()],
	['history-stats', '/stats from a year of history', () => runHistoryStatsBench()],
	['service', 'stats service at 10 million events', () => runServiceBench()],
	['web', 'web dashboard', () => runWebBench()],
	['jobs', 'one REST budget: 4 processes, 10,000 stat channels, 1,000 boards', () => runJobsBench()],
	['data', 'forget and purge at 100,000 links and 20,000 servers', () => runDataBench()],
	['notes', '/stats cache hit with 50 notes beside none', () => runNotesBench()],
	['webhooks', '1,000 outgoing webhooks at once beside /stats', () => runWebhooksBench()],
];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !sections.some(([short]) => short === name));
if (unknown.length > 0) {
	console.error(`unknown bench part ${unknown.join(', ')}; the parts: ${sections.map(([short]) => short).join(', ')}`);
	process.exit(2);
}

function printTable(figures: BenchFigure[]): void {
	const rows = figures.map((f) => [
		f.name,
		`${f.value} ${f.unit}`,
		f.baseline === null ? '' : `${f.baseline} ${f.unit}`,
		f.goal,
		f.met === null ? '' : f.met ? 'met' : 'MISSED',
	]);
	const header = ['figure', 'value', 'baseline', 'goal', ''];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
	const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
	console.log(line(header));
	console.log(widths.map((w) => '-'.repeat(w)).join('  '));
	for (const row of rows) console.log(line(row));
}

/** Three significant decimals are plenty for figures that drift from run to run. */
function rounded(figure: BenchFigure): BenchFigure {
	const round = (value: number) => (Number.isFinite(value) ? Math.round(value * 1000) / 1000 : value);
	return { ...figure, value: round(figure.value), baseline: figure.baseline === null ? null : round(figure.baseline) };
}

const figures: BenchFigure[] = [];
const started = Date.now();
console.log(`Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'})`);
for (const [short, title, run] of sections) {
	if (wanted.length > 0 && !wanted.includes(short)) continue;
	const sectionStart = Date.now();
	console.log(`\n== ${title}`);
	try {
		const result = (await run()).map(rounded);
		figures.push(...result);
		printTable(result);
	} catch (error) {
		console.error(`${title} failed: ${error instanceof Error ? error.stack : String(error)}`);
		figures.push({ name: `${title} (failed)`, value: Number.NaN, unit: '', baseline: null, goal: '', met: false });
	}
	console.log(`(${((Date.now() - sectionStart) / 1000).toFixed(1)} s)`);
}
console.log(`\n== all figures (${((Date.now() - started) / 1000).toFixed(0)} s)`);
printTable(figures);
mkdirSync('bench', { recursive: true });
writeFileSync('bench/results.json', `${JSON.stringify(figures, null, 2)}\n`);
console.log('\nWrote bench/results.json');
process.exit(0);
